import { spawnSync } from 'node:child_process'
import { defineConfig } from 'vite'

// stablecoin-widget/server: the partner-backend kit, one ESM file for Node 20 and any runtime with
// fetch-standard Request/Response (zod/mini bundled in), types from tsconfig.server.json (no DOM).
export default defineConfig({
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: 'dist/server',
    emptyOutDir: true,
    copyPublicDir: false,
    minify: true,
    lib: { entry: 'src/server/index.ts', formats: ['es'], fileName: () => 'index.js' },
    rollupOptions: { external: [/^node:/] },
  },
  plugins: [
    {
      name: 'server-kit-types',
      closeBundle() {
        const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' })
        if (tsc.status !== 0) throw new Error('tsc -p tsconfig.server.json failed')
      },
    },
  ],
})
