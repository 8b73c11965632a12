#!/usr/bin/env node
// `npm start`: the sandbox stack, and with --demo the hosted page on Vite's dev server.
// Ports: SOURCE_PORT, DEST_PORT, API_PORT (defaults 8545, 8546, 8787).
import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { demoUrl } from './demoUrl.mjs'
import { startStack } from './stack.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const env = (name, fallback) => Number(process.env[name] ?? fallback)

let stack
try {
  stack = await startStack({ sourcePort: env('SOURCE_PORT', 8545), destPort: env('DEST_PORT', 8546), apiPort: env('API_PORT', 8787) })
} catch (error) {
  console.error(`[sandbox] failed to start: ${error.message}`)
  process.exit(1)
}
console.log(JSON.stringify(stack.config, null, 2))

let vite
let viteExited = Promise.resolve()
if (process.argv.includes('--demo')) {
  // The real node process running vite (no npx wrapper), so killing it frees the port.
  // The built bundle (the script-tag loader exists only in a build), served as a CDN would.
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
  vite = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--port', '5173', '--strictPort', '--host', '127.0.0.1'], {
    cwd: ROOT,
    stdio: 'inherit',
  })
  viteExited = new Promise((resolve) => vite.once('exit', resolve))
  vite.once('exit', (code, signal) => !stopping && console.error(`[sandbox] vite exited (${signal ?? code})`))
  console.log(`Open: ${demoUrl(stack.config)}`)
  for (const flow of ['deposit', 'card', 'onboarding']) console.log(`  ${flow.padEnd(10)} ${demoUrl(stack.config, undefined, flow)}`)
  for (const mode of ['script', 'iframe', 'element', 'csp', 'hosted']) console.log(`  partner page, ${mode.padEnd(8)} ${stack.config.apiBase}/examples/${mode}.html`)
}

let stopping = false
async function shutdown() {
  if (stopping) return
  stopping = true
  if (vite && vite.exitCode === null && vite.signalCode === null) vite.kill('SIGTERM')
  await Promise.all([viteExited, stack.stop()])
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
