#!/usr/bin/env node
// `npm run build`: the app (hosted page, iframe page, runtime), then the script-tag loader pointed
// at the runtime's hashed file, then dist/sri.json with Subresource Integrity hashes of every file.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const vite = (args, env = {}) => {
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

vite([])
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'))
const runtime = manifest['src/embed/runtime.ts']?.file
if (!runtime) throw new Error('no runtime chunk in the manifest')
vite(['--config', 'vite.loader.config.ts'], { WIDGET_RUNTIME: `./${runtime}` })
// The npm package (ESM + types) in dist/lib.
vite(['--config', 'vite.lib.config.ts'])
const types = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], { stdio: 'inherit' })
if (types.status !== 0) process.exit(types.status ?? 1)

const files = []
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'lib') walk(path)
    }
    else if (/\.(js|css|html)$/.test(name)) files.push(path)
  }
}
walk('dist')
const sri = Object.fromEntries(
  files.sort().map((f) => [relative('dist', f), `sha384-${createHash('sha384').update(readFileSync(f)).digest('base64')}`]),
)
writeFileSync('dist/sri.json', `${JSON.stringify(sri, null, 2)}\n`)
console.log(`built: loader stablecoin-widget.js → ${runtime}; ${files.length} files in dist/sri.json`)
