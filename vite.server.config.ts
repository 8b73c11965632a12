import { type ChildProcess, spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { defineConfig } from 'vite'

// stablecoin-widget/server: the partner-backend kit, one ESM file for Node 20 and any runtime with
// fetch-standard Request/Response (zod/mini bundled in), and its types from tsconfig.server.json
// (no DOM lib, so a DOM global in the kit fails the build). tsc runs beside the bundler, not after.
// PGlite stays outside the file: the default store imports it only when it is used. viem (which
// reads a crypto deposit's receipt) is a dependency of the package: imported, not copied in.
const OUT = 'dist/server'
let tsc: ChildProcess | undefined

export default defineConfig({
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: OUT,
    emptyOutDir: false, // emptied once below, before tsc starts writing the types into it
    copyPublicDir: false,
    minify: true,
    lib: { entry: 'src/server/index.ts', formats: ['es'], fileName: () => 'index.js' },
    rollupOptions: { external: [/^node:/, '@electric-sql/pglite', /^viem($|\/)/], output: { codeSplitting: false } },
  },
  plugins: [
    {
      name: 'server-kit-types',
      buildStart() {
        rmSync(OUT, { recursive: true, force: true })
        tsc = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.server.json'], { stdio: 'inherit' })
      },
      async closeBundle() {
        const child = tsc
        if (!child) return
        if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve))
        if (child.exitCode !== 0) throw new Error('tsc -p tsconfig.server.json failed')
      },
    },
  ],
})
