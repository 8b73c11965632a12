import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { measure } from './bundleSizes'

// Bytes of the built bundle, gzip level 9. Deterministic for a given build, so a budget test.
const BUDGET = {
  initialJs: 24 * 1024,
  initialCss: 3 * 1024,
  depositJs: 70 * 1024,
}

describe('bundle budget (gzip)', () => {
  const sizes = measure()

  it(`the hosted page's initial JavaScript stays under ${BUDGET.initialJs} bytes`, () => {
    expect(sizes.initialJs).toBeLessThanOrEqual(BUDGET.initialJs)
  })

  it(`its CSS stays under ${BUDGET.initialCss} bytes`, () => {
    expect(sizes.initialCss).toBeLessThanOrEqual(BUDGET.initialCss)
  })

  it(`the deposit flow's chunks (screens, machine, viem actions) stay under ${BUDGET.depositJs} bytes`, () => {
    expect(sizes.depositJs).toBeLessThanOrEqual(BUDGET.depositJs)
  })

  it('viem is not part of the initial load: it loads once a wallet is chosen', () => {
    const withViem = sizes.initialFiles.filter((f) => readFileSync(join('dist', f), 'utf8').includes('viem@'))
    expect(sizes.initialFiles.length).toBeGreaterThan(0)
    expect(withViem).toEqual([])
  })
})
