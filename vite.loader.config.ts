import { defineConfig } from 'vite'

// The script-tag loader: one classic script (IIFE), no imports, a stable name. It finds the
// hashed runtime through __RUNTIME__, which scripts/build.mjs reads from the app build's manifest.
export default defineConfig({
  define: { __RUNTIME__: JSON.stringify(process.env.WIDGET_RUNTIME ?? './assets/runtime.js') },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    copyPublicDir: false,
    lib: {
      entry: 'src/embed/loader.ts',
      formats: ['iife'],
      name: 'StablecoinWidgetLoader',
      fileName: () => 'stablecoin-widget.js',
    },
  },
})
