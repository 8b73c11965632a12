import preact from '@preact/preset-vite'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [preact()],
  // Unit tests see the sandbox build (e2e covers the production build's refusals).
  define: { __SANDBOX_BUILD__: 'true' },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'test/unit/**/*.test.{ts,tsx}', 'test/size/**/*.test.ts'],
    environment: 'node',
    // Worker threads start faster than forked processes: on this 2-core machine the suite took 75 s
    // with threads against about 90 s with forks (2026-11-24).
    pool: 'threads',
    setupFiles: ['test/unit/setup/afterFirstScreen.ts'],
  },
})
