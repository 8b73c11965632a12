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
  // Issue 19 asks for 30 KB (card, bank) and 65 KB (deposit with its wallet code). Measured on
  // 2026-11-23 after the options lost zod and the response schemas were split per flow: card
  // 41.1 KB, bank 42.3 KB, deposit with wallet 67.7 KB; the budgets are those + 0.5 KB, so they
  // grow no further. Still over: every flow's first screen needs zod (its stored-state checks in
  // flows/*/persisted.ts and identity/, and the schemas that api/card, fiat, reference and cardRate
  // build when imported), about 9.5 KB; and the later screens load with the first. Issue 19 stays
  // open on these three figures.
  card: 41.7 * KB,
  onboarding: 42.9 * KB,
  depositWithWallet: 68.2 * KB,
  // The new flows (issues 17, 18), measured the same day + 1 KB (bank deposit 41.9 KB; payout
  // 59.5 KB, 81.1 KB with its wallet code, and still growing while it is built); the goal for the
  // bank deposit's first load is 35 KB.
  bankDeposit: 42.9 * KB,
  payout: 60.6 * KB,
  payoutWithWallet: 82.2 * KB,
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

  it(`the bank deposit flow before its first interaction stays under ${BUDGET.bankDeposit} bytes`, () => {
    expect(sizes.flows.bankDeposit).toBeLessThanOrEqual(BUDGET.bankDeposit)
  })

  it(`the payout flow before its first interaction stays under ${BUDGET.payout} bytes, and with its wallet code under ${BUDGET.payoutWithWallet}`, () => {
    expect(sizes.flows.payout).toBeLessThanOrEqual(BUDGET.payout)
    expect(sizes.flows.payout + sizes.payoutWallet).toBeLessThanOrEqual(BUDGET.payoutWithWallet)
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
