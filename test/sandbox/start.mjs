#!/usr/bin/env node
// `npm start`: the sandbox stack, and with --demo a sandbox build of the widget served on 5173.
// Ports: SOURCE_PORT, DEST_PORT, API_PORT (defaults 8545, 8546, 8787).
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { demoUrl } from './demoUrl.mjs'
import { startStack } from './stack.mjs'
import { serveStatic } from './static.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const env = (name, fallback) => Number(process.env[name] ?? fallback)

let stack
try {
  stack = await startStack({ sourcePort: env('SOURCE_PORT', 8545), destPort: env('DEST_PORT', 8546), apiPort: env('API_PORT', 8787) })
} catch (error) {
  console.error(`[sandbox] failed to start: ${error.message}`)
  process.exit(1)
}
// The sandbox partner's private key stays out of the printout (the registry holds the public half).
const { signingKey, ...shown } = stack.config
console.log(JSON.stringify(shown, null, 2))

let site
if (process.argv.includes('--demo')) {
  // A sandbox build from a registry generated for this stack (partner `sandbox`, a fresh key pair),
  // served with the `_headers` the build wrote, as a CDN would serve it.
  mkdirSync(`${ROOT}.sandbox-state`, { recursive: true })
  const registry = `${ROOT}.sandbox-state/partners.json`
  writeFileSync(registry, JSON.stringify(stack.registry, null, 2))
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', registry, '--out', 'dist-sandbox'], { cwd: ROOT, stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
  site = await serveStatic({ dir: `${ROOT}dist-sandbox`, port: 5173 })
  console.log(`Open: ${demoUrl(stack.config)}`)
  console.log('Signed links of the sandbox partner (the partner kit signs them on the partner\'s server):')
  for (const flow of ['deposit', 'card', 'onboarding']) console.log(`  ${flow.padEnd(10)} ${demoUrl(stack.config, undefined, flow)}`)
  for (const mode of ['script', 'iframe', 'frame', 'element', 'markup', 'csp', 'hosted']) console.log(`  partner page, ${mode.padEnd(8)} ${stack.config.apiBase}/examples/${mode}.html`)
}

let stopping = false
async function shutdown() {
  if (stopping) return
  stopping = true
  await Promise.all([site?.close(), stack.stop()])
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
