#!/usr/bin/env node
// `npm start`: the sandbox stack, and with --demo the hosted page on Vite's dev server.
import { spawn } from 'node:child_process'
import { demoUrl } from './demoUrl.mjs'
import { startStack } from './stack.mjs'

const env = (name, fallback) => Number(process.env[name] ?? fallback)
const stack = await startStack({ sourcePort: env('SOURCE_PORT', 8545), destPort: env('DEST_PORT', 8546), apiPort: env('API_PORT', 8787) })
let vite
if (process.argv.includes('--demo')) {
  vite = spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', '5173', '--strictPort', '--host', '127.0.0.1', '--logLevel', 'warn'], { stdio: 'inherit' })
  vite.on('exit', (code) => code && console.error(`vite exited with ${code}`))
  console.log(`\nOpen: ${demoUrl(stack.config)}\n`)
} else {
  console.log(JSON.stringify(stack.config, null, 2))
}

let stopping = false
async function shutdown() {
  if (stopping) return
  stopping = true
  vite?.kill('SIGTERM')
  await stack.stop()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
