import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { measure } from './bundleSizes'

// Bytes of the built bundle, gzip level 9: deterministic for a given build, so a budget test.
const KB = 1024
const BUDGET = {
  loader: 2 * KB,
  initial: 32 * KB,
  card: 35 * KB,
  onboarding: 35 * KB,
  depositWithWallet: 80 * KB,
}

describe('bundle budget (gzip)', () => {
  const sizes = measure()

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
    const withViem = sizes.initialFiles.filter((f) => readFileSync(join('dist', f), 'utf8').includes('viem@'))
    expect(sizes.initialFiles.length).toBeGreaterThan(0)
    expect(withViem).toEqual([])
    expect(sizes.wallet).toBeGreaterThan(20 * KB)
  })

  it('the loader is one classic script: no import statements, only the lazy import of the runtime', () => {
    const loader = readFileSync(join('dist', 'stablecoin-widget.js'), 'utf8')
    expect(loader).not.toMatch(/^\s*import\s|\bexport\s*\{/m)
    expect(loader).toMatch(/import\(/)
  })
})
