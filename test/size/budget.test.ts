import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gzipSize, measure } from './bundleSizes'

// The built output to check (npm test builds dist/; WIDGET_DIST checks another build).
const DIST = process.env.WIDGET_DIST ?? 'dist'

// Bytes of the built bundle, gzip level 9: deterministic for a given build, so a budget test.
const KB = 1024
const BUDGET = {
  // A stub that queues calls until the runtime arrives (issue 19).
  loader: 1 * KB,
  initial: 32 * KB,
  // Issue 19 asks for 30 KB; the partner registry, signed links, error boundary and money-text
  // fixes of issues 13 and 15 took card and bank from 34.5 / 34.8 KB to 37.5 / 38.1 KB. Held here
  // so they grow no further; issue 19 stays open until zod leaves the first load (see its note).
  card: 38.5 * KB,
  onboarding: 38.5 * KB,
  depositWithWallet: 65 * KB,
}

describe('bundle budget (gzip)', () => {
  const sizes = measure(DIST)

  it(`the script-tag loader stays under ${BUDGET.loader} bytes`, () => {
    expect(sizes.loader).toBeLessThanOrEqual(BUDGET.loader)
  })

  it(`the hosted page's first load stays under ${BUDGET.initial} bytes`, () => {
    expect(sizes.initial).toBeLessThanOrEqual(BUDGET.initial)
  })

  it(`the card flow before its first interaction stays under ${BUDGET.card} bytes`, () => {
    expect(sizes.flows.card).toBeLessThanOrEqual(BUDGET.card)
  })

  it(`the fiat flow before its first interaction stays under ${BUDGET.onboarding} bytes`, () => {
    expect(sizes.flows.onboarding).toBeLessThanOrEqual(BUDGET.onboarding)
  })

  it(`the deposit flow with its wallet code stays under ${BUDGET.depositWithWallet} bytes`, () => {
    expect(sizes.flows.deposit + sizes.wallet).toBeLessThanOrEqual(BUDGET.depositWithWallet)
  })

  it('viem is not part of the first load: it loads once a wallet is chosen', () => {
    const withViem = sizes.initialFiles.filter((f) => readFileSync(join(DIST, f), 'utf8').includes('viem@'))
    expect(sizes.initialFiles.length).toBeGreaterThan(0)
    expect(withViem).toEqual([])
    // It is in the wallet code instead (not a size guess: viem's own version mark).
    expect(sizes.walletFiles.some((f) => readFileSync(join(DIST, f), 'utf8').includes('viem@'))).toBe(true)
  })

  it("the loader's runtime is one module of its own: iframe() fetches the loader and it, never the widget's chunks", () => {
    const runtime = JSON.parse(readFileSync(join(DIST, '.vite', 'runtime.json'), 'utf8'))['src/embed/runtime.ts'].file
    const code = readFileSync(join(DIST, runtime), 'utf8')
    expect(code).not.toMatch(/\bimport\s*[{*\w]|\bimport\(/)
    expect(gzipSize(DIST, runtime)).toBeLessThanOrEqual(3 * KB)
    const loader = readFileSync(join(DIST, 'stablecoin-widget.js'), 'utf8')
    expect(loader).toContain(runtime)
  })

  it('the loader is one classic script: no import statements, only the lazy import of the runtime', () => {
    const loader = readFileSync(join(DIST, 'stablecoin-widget.js'), 'utf8')
    expect(loader).not.toMatch(/^\s*import\s|\bexport\s*\{/m)
    expect(loader).toMatch(/import\(/)
  })
})
