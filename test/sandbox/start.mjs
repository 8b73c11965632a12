#!/usr/bin/env node
// `npm start`: the sandbox stack, and with --demo a sandbox build of the widget served on 5173.
// Ports: SOURCE_PORT, DEST_PORT, API_PORT, WIDGET_PORT (defaults 8545, 8546, 8787, 5173), and
// WC_RELAY_PORT, PHONE_WALLET_PORT for WalletConnect's local relay and the phone wallet (8788, 8789;
// free ones when API_PORT is moved).
// It prints a short summary (startSummary.mjs); the stack's JSON goes to .sandbox-state/, and
// --verbose also prints it, with the stack's and the build's own output.
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DEFAULT_ORIGINS, startStack } from './stack.mjs'
import { startSummary } from './startSummary.mjs'
import { serveStatic } from './static.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const env = (name, fallback) => Number(process.env[name] ?? fallback)
const demo = process.argv.includes('--demo')
const verbose = process.argv.includes('--verbose')
const apiPort = env('API_PORT', 8787)
const widgetPort = env('WIDGET_PORT', 5173)
const widgetBase = `http://127.0.0.1:${widgetPort}`

console.log(`Starting the sandbox: two local chains, the sandbox service${demo ? ', a sandbox build of the widget' : ''}…`)
let stack
try {
  stack = await startStack({
    sourcePort: env('SOURCE_PORT', 8545),
    destPort: env('DEST_PORT', 8546),
    apiPort,
    quiet: !verbose,
    allowedOrigins: [...new Set([...DEFAULT_ORIGINS, widgetBase, `http://localhost:${widgetPort}`])],
    widgetBase,
    walletConnect: { relayPort: env('WC_RELAY_PORT', apiPort === 8787 ? 8788 : 0), phonePort: env('PHONE_WALLET_PORT', apiPort === 8787 ? 8789 : 0) },
    // The shop's server: the kit's store, kept in .sandbox-state/ so a restart keeps who paid what,
    // and its reconciler, whose every delivered change is printed.
    ...(demo && {
      partnerDemo: {
        dataDir: `${ROOT}.sandbox-state/partner-store${apiPort === 8787 ? '' : `-${apiPort}`}`,
        eager: true,
        reconcile: true,
        report: (line) => console.log(`[shop server] ${line}`),
        log: (line) => verbose && console.warn(`[shop server] ${line}`),
      },
    }),
  })
} catch (error) {
  console.error(`[sandbox] failed to start: ${error.message}`)
  process.exit(1)
}
// The sandbox partner's private key stays out of the file and the printout (the registry holds the public half).
const { signingKey, ...shown } = stack.config
mkdirSync(`${ROOT}.sandbox-state`, { recursive: true })
const stackFile = `.sandbox-state/stack${apiPort === 8787 ? '' : `-${apiPort}`}.json`
writeFileSync(`${ROOT}${stackFile}`, `${JSON.stringify(shown, null, 2)}\n`)
if (verbose) console.log(JSON.stringify(shown, null, 2))

let site
if (demo) {
  // A sandbox build from a registry generated for this stack (partner `sandbox`, a fresh key pair),
  // served with the `_headers` the build wrote, as a CDN would serve it.
  const registry = `${ROOT}.sandbox-state/partners.json`
  writeFileSync(registry, JSON.stringify(stack.registry, null, 2))
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', registry, '--out', 'dist-sandbox'], {
    cwd: ROOT,
    stdio: verbose ? 'inherit' : 'pipe',
    encoding: 'utf8',
  })
  if (built.status !== 0) {
    if (!verbose) process.stderr.write(`${built.stdout ?? ''}${built.stderr ?? ''}`)
    console.error('[sandbox] the sandbox build failed')
    await stack.stop()
    process.exit(built.status ?? 1)
  }
  try {
    site = await serveStatic({ dir: `${ROOT}dist-sandbox`, port: widgetPort })
  } catch (error) {
    console.error(`[sandbox] cannot serve the widget on port ${widgetPort} (${error.code ?? error.message}); WIDGET_PORT moves it`)
    await stack.stop()
    process.exit(1)
  }
}
console.log(startSummary({ config: stack.config, widgetBase: site ? widgetBase : undefined, stackFile }))

let stopping = false
async function shutdown() {
  if (stopping) return
  stopping = true
  await Promise.all([site?.close(), stack.stop()])
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
