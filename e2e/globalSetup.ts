import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
// @ts-expect-error: plain ESM module of the sandbox, typed by e2e/sandbox.d.ts
import { DEFAULT_ORIGINS, startStack } from '../test/sandbox/stack.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { serveStatic } from '../test/sandbox/static.mjs'
import { PROD_REGISTRY, SECOND_PARTNER, type StackConfig, UNLINKED_PARTNER, WALLETCONNECT_PARTNER, WORKERS, layout } from './stack'

function build(partners: string, out: string, reuse?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['scripts/build.mjs', '--partners', partners, '--out', out, ...(reuse ? ['--reuse', reuse] : [])]
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] })
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build of ${out} failed (${code})`))))
  })
}

/**
 * One stack per worker (e2e/stack.ts `layout`), each with two builds served as a CDN would serve
 * them (with their `_headers`):
 * - a sandbox build, made from that stack's own registry (partner `sandbox`, fresh key);
 * - the production build of test/fixtures/partners.json (no sandbox code at all): `npm test` hands
 *   over the one it has just built into dist/ (E2E_PROD_DIR); otherwise it is built once into a
 *   folder of its own.
 */
export default async function globalSetup() {
  mkdirSync('.sandbox-state', { recursive: true })
  const slots = Array.from({ length: WORKERS }, (_, slot) => layout(slot))
  // E2E_PROD_DIR serves another production build as it is (e.g. an older commit's, to see the attacks succeed there).
  const prodDir = process.env.E2E_PROD_DIR ?? slots[0].prodDist
  const prodBuilt = process.env.E2E_PROD_DIR ? Promise.resolve() : build(PROD_REGISTRY, prodDir)
  const started = await Promise.all(
    slots.map(async (l) => {
      // The shop's server opens its store (PGlite, in memory) and starts its reconciler with the stack.
      const stack = await startStack({
        ...l.ports,
        quiet: true,
        widgetBase: l.sandboxOrigin,
        allowedOrigins: [...DEFAULT_ORIGINS, l.sandboxOrigin],
        partnerDemo: { eager: true, reconcile: true },
        // The local WalletConnect relay and the sandbox's phone wallet (test/sandbox/walletconnect/).
        walletConnect: { relayPort: 0, phonePort: 0 },
      })
      // A second partner on the same service and the same origin (its links signed with the same
      // key): one partner's stored records must never reach the other's page (e2e/partners.spec.ts).
      // A third whose entry says nothing of wallet links, with a backend that answers every path
      // (a preflight too) with a 404 without CORS headers: the static host of the production build,
      // another origin than the sandbox build's (e2e/deposit-kit.spec.ts).
      // WalletConnect is offered by a fourth partner only (the same entry with the relay), so the
      // others' wallet lists stay as they are.
      const { walletConnect, ...plain } = stack.registry[0]
      const { walletLink: _, ...linked } = plain
      const unlinked = { ...linked, id: UNLINKED_PARTNER, partnerBase: `${l.prodOrigin}/shop-api`, flows: ['deposit'] }
      const registry = [plain, { ...plain, id: SECOND_PARTNER, defaults: undefined }, unlinked, { ...plain, id: WALLETCONNECT_PARTNER, walletConnect }]
      writeFileSync(l.registryFile, JSON.stringify(registry, null, 2))
      return { l, stack }
    }),
  )
  // The bundles do not depend on the registry: the first stack's sandbox build is made in full, and
  // each further stack's takes its bundles and writes its own pages (scripts/build.mjs --reuse), all
  // at once. E2E_SANDBOX_BUNDLES names a sandbox build of this same source to take them from for the
  // first too (`npm test` hands the cross-browser suite the one the Chromium suite has just made).
  const bundles = process.env.E2E_SANDBOX_BUNDLES
  try {
    const [first, ...others] = started.map(({ l }) => l)
    await build(first.registryFile, first.sandboxDist, bundles)
    await Promise.all(others.map((l) => build(l.registryFile, l.sandboxDist, first.sandboxDist)))
    await prodBuilt
  } catch (error) {
    // A failed build leaves no chain running behind it.
    await Promise.all(started.map(({ stack }) => stack.stop()))
    throw error
  }
  const servers: Array<{ close(): Promise<void> }> = []
  for (const { l, stack } of started) {
    servers.push(await serveStatic({ dir: l.sandboxDist, port: Number(new URL(l.sandboxOrigin).port) }))
    servers.push(await serveStatic({ dir: prodDir, port: Number(new URL(l.prodOrigin).port) }))
    writeFileSync(l.stackFile, JSON.stringify(stack.config satisfies StackConfig))
  }
  return async () => {
    await Promise.all(servers.map((s) => s.close()))
    await Promise.all(started.map(({ stack }) => stack.stop()))
  }
}
