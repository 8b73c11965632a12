import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

// The app build: the hosted page, the iframe page, and the runtime the script-tag loader fetches.
// The loader itself is built by vite.loader.config.ts (scripts/build.mjs runs both).
export default defineConfig({
  plugins: [preact()],
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    rollupOptions: {
      input: { index: 'index.html', embed: 'embed.html', runtime: 'src/embed/runtime.ts' },
      preserveEntrySignatures: 'exports-only',
    },
  },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
})
