import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
// @ts-expect-error: plain ESM module of the sandbox, typed by e2e/sandbox.d.ts
import { DEFAULT_ORIGINS, startStack } from '../test/sandbox/stack.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { serveStatic } from '../test/sandbox/static.mjs'
import { PORTS, PORTS_OFFSET, PROD_DIST, PROD_ORIGIN, PROD_REGISTRY, SANDBOX_DIST, SANDBOX_ORIGIN, STACK_FILE, type StackConfig } from './stack'

function build(partners: string, out: string) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', partners, '--out', out], { stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`build of ${out} failed`)
}

/**
 * The sandbox stack, then two builds served as a CDN would serve them (with their `_headers`):
 * - the sandbox build on 4173, made from the stack's own registry (partner `sandbox`, fresh key);
 * - the production build on 4174, made from test/fixtures/partners.json (no sandbox code at all),
 *   into a folder of its own (dist/ belongs to `npm run build`).
 */
export default async function globalSetup() {
  const stack = await startStack({ ...PORTS, quiet: true, widgetBase: SANDBOX_ORIGIN, allowedOrigins: [...DEFAULT_ORIGINS, SANDBOX_ORIGIN] })
  mkdirSync('.sandbox-state', { recursive: true })
  const registry = `.sandbox-state/partners-${PORTS_OFFSET}.json`
  writeFileSync(registry, JSON.stringify(stack.registry, null, 2))
  build(registry, SANDBOX_DIST)
  // E2E_PROD_DIR serves another production build as it is (e.g. an older commit's, to see the attacks succeed there).
  const prodDir = process.env.E2E_PROD_DIR ?? PROD_DIST
  if (!process.env.E2E_PROD_DIR) build(PROD_REGISTRY, PROD_DIST)
  const servers = [await serveStatic({ dir: SANDBOX_DIST, port: Number(new URL(SANDBOX_ORIGIN).port) }), await serveStatic({ dir: prodDir, port: Number(new URL(PROD_ORIGIN).port) })]
  writeFileSync(STACK_FILE, JSON.stringify(stack.config satisfies StackConfig))
  return async () => {
    await Promise.all(servers.map((s) => s.close()))
    await stack.stop()
  }
}
