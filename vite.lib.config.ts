import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

// The npm package: ESM, code-split (the widget loads on first mount), types from tsconfig.lib.json.
export default defineConfig({
  plugins: [preact()],
  define: { __SANDBOX_BUILD__: 'false' },
  build: {
    target: 'es2022',
    outDir: 'dist/lib',
    emptyOutDir: true,
    copyPublicDir: false,
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'index.js' },
  },
})
