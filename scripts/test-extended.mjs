#!/usr/bin/env node
// `npm run test:extended`: the tier CI runs after `npm test` (docs/testing.md). `npm test` is the
// suite a developer runs before every commit, under five minutes; this is the rest, which CI runs
// on every submission too:
// - the integration tests of the sandbox against the contract (stacks on anvil) and of the
//   package (pack, attw, publint, the partner server compiled against it);
// - the end-to-end tests tagged @extended in Chromium: the longer variants of each flow's main path
//   (which runs in `npm test`), the further cases of each parametrised family (the first runs in
//   `npm test`), the fault storms, and the cases whose rule a unit test holds;
// - the whole cross-browser suite in Firefox ESR and WebKitGTK (`npm test` runs its tagged share).
// It builds first when there is no build (the budget, pack and e2e tests read dist/).
import { run } from './step.mjs'
import { existsSync } from 'node:fs'

const started = Date.now()
const node = process.execPath

if (!existsSync('dist/sri.json')) run('build', node, ['scripts/build.mjs', '--partners', 'test/fixtures/partners.json'])
run('integration tests (extended)', node, ['node_modules/vitest/vitest.mjs', 'run'], { TEST_TIER: 'extended' })
run('end-to-end tests (extended)', node, ['node_modules/@playwright/test/cli.js', 'test'], {
  E2E_TIER: 'extended',
  E2E_PROD_DIR: process.env.E2E_PROD_DIR ?? 'dist',
})
run('cross-browser tests (all)', node, ['scripts/test-browsers.mjs'], {
  E2E_PROD_DIR: process.env.E2E_PROD_DIR ?? 'dist',
  ...(existsSync('dist-sandbox') ? { E2E_SANDBOX_BUNDLES: 'dist-sandbox' } : {}),
})
console.log(`\n✔ the extended tier passed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
