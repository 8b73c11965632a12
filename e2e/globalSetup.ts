import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
// @ts-expect-error: plain ESM module of the sandbox, typed by e2e/sandbox.d.ts
import { startStack } from '../test/sandbox/stack.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { serveStatic } from '../test/sandbox/static.mjs'
import { PROD_DIST, PROD_ORIGIN, PROD_REGISTRY, SANDBOX_DIST, STACK_FILE, type StackConfig } from './stack'

function build(partners: string, out: string) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', partners, '--out', out], { stdio: 'inherit' })
  if (r.status !== 0) throw new Error(`build of ${out} failed`)
}

/**
 * The sandbox stack, then two builds served as a CDN would serve them (with their `_headers`):
 * - the sandbox build on 4173, made from the stack's own registry (partner `sandbox`, fresh key);
 * - the production build on 4174, made from test/fixtures/partners.json (no sandbox code at all).
 */
export default async function globalSetup() {
  const stack = await startStack({ sourcePort: 19545, destPort: 19546, apiPort: 19787, quiet: true, widgetBase: 'http://127.0.0.1:4173' })
  mkdirSync('.sandbox-state', { recursive: true })
  writeFileSync('.sandbox-state/partners.json', JSON.stringify(stack.registry, null, 2))
  build('.sandbox-state/partners.json', SANDBOX_DIST)
  if (!existsSync(`${PROD_DIST}/p/acme-shop/embed.html`)) build(PROD_REGISTRY, PROD_DIST)
  const servers = [await serveStatic({ dir: SANDBOX_DIST, port: 4173 }), await serveStatic({ dir: PROD_DIST, port: Number(new URL(PROD_ORIGIN).port) })]
  writeFileSync(STACK_FILE, JSON.stringify(stack.config satisfies StackConfig))
  return async () => {
    await Promise.all(servers.map((s) => s.close()))
    await stack.stop()
  }
}
