#!/usr/bin/env node
// `npm test`: the first tier (docs/testing.md; CI then runs scripts/test-extended.mjs), in order: browser check, types, build, unit tests (with the bundle
// budget, which reads the build), then the end-to-end suite against the sandbox and anvil in
// Chromium (its first tier: each flow's main path, one axe and keyboard check per flow, every trust
// and security test; the tests tagged @extended run in test-extended.mjs), then its cross-browser
// share in Firefox ESR and WebKitGTK.
import { run } from './step.mjs'
import { existsSync } from 'node:fs'

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const started = Date.now()

if (!existsSync(chromium)) {
  if (process.getuid?.() === 0) {
    run('install Debian chromium', 'sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'])
  } else {
    console.error(`Chromium not found at ${chromium}. Install it with: sudo apt-get install -y chromium`)
    console.error('(or point CHROMIUM_PATH at a Chromium binary)')
    process.exit(1)
  }
}

const node = process.execPath
// The formatter's check (biome.json): a file it would change fails here; `npm run format` fixes it.
run('format', node, ['node_modules/@biomejs/biome/bin/biome', 'format', '.'])
run('typecheck', node, ['node_modules/typescript/bin/tsc', '--noEmit'])
// The production build, from the test registry: the budget test measures it and greps it for sandbox code.
run('build', node, ['scripts/build.mjs', '--partners', 'test/fixtures/partners.json'])
run('unit tests', node, ['node_modules/vitest/vitest.mjs', 'run'])
// The end-to-end suite serves the production build made above (the same registry) instead of making
// its own; with E2E_PORTS_OFFSET (a second suite beside the first) it makes its own, as another
// run's build step may rewrite dist/ while this suite serves it.
const prodDir = process.env.E2E_PROD_DIR ?? (process.env.E2E_PORTS_OFFSET ? undefined : 'dist')
run('end-to-end tests', node, ['node_modules/@playwright/test/cli.js', 'test'], prodDir ? { E2E_PROD_DIR: prodDir } : {})
// Then Firefox ESR and WebKitGTK (e2e-browsers/, docs/testing.md), each on its share of the specs,
// both at once; an engine that is not installed is skipped with a line saying so. They serve the
// production build the Chromium suite served, and take the bundles of its first sandbox build.
const offset = process.env.E2E_PORTS_OFFSET ? `-${process.env.E2E_PORTS_OFFSET}` : ''
const bundles = `dist-sandbox${offset}`
run('cross-browser tests', node, ['scripts/test-browsers.mjs', '--quick'], {
  E2E_PROD_DIR: prodDir ?? `dist-prod${offset}`,
  ...(existsSync(bundles) ? { E2E_SANDBOX_BUNDLES: bundles } : {}),
})
console.log(`\n✔ all tests passed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
