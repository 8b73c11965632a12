import preact from '@preact/preset-vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [preact()],
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
  },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
})
