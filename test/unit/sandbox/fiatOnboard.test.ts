// Issue 28, item 9: the sandbox's /fiat/onboard follows the contract exactly. `individual.category`
// is optional and defaults to `self_employed`, the only value the contract names: a request without
// it, or with that value, is onboarded; any other value is refused (the banking partner's code)
// rather than taken as a category the service was never said to know.
import { describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { fiatRoutes } from '../../sandbox/routes/fiat.mjs'

const fiat = fiatRoutes({ publicBase: 'http://127.0.0.1:0' })
let n = 0
function onboard(individual: Record<string, unknown>) {
  const authCode = `ac_test_${n++}`
  fiat.control.set({ issueAuthCode: authCode })
  const body = {
    authCode,
    applicantInfo: { nationality: 'DE', phone: '+4915112345678' },
    individual: { name: 'Ada Lovelace', email: 'ada@example.com', country: 'DE', ...individual },
    wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  }
  try {
    return { ok: true, body: fiat.routes['POST /fiat/onboard']({ body }).body }
  } catch (error) {
    const e = error as { status: number; code: string }
    return { ok: false, status: e.status, code: e.code }
  }
}

describe('sandbox /fiat/onboard: individual.category as the contract names it', () => {
  it('without a category the buyer is onboarded (the default applies)', () => {
    expect(onboard({})).toMatchObject({ ok: true, body: { kycStatus: 'approved' } })
  })
  it('self_employed, the one value the contract names, is onboarded', () => {
    expect(onboard({ category: 'self_employed' })).toMatchObject({ ok: true })
  })
  it.each(['employed', 'student', 'retired', 'unemployed', ''])('%j, which the contract never names, is refused', (category) => {
    expect(onboard({ category })).toMatchObject({ ok: false, status: 400 })
  })
})
