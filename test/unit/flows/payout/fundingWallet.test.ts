// Review of issue 31: the wallet that funds a payout against the buyer it is created for. The
// contract's accountId is "the paying user (whose identity result is held and whose wallet funds
// the payout)" (partner-api.md, POST /v1/bank/payout). The price-first order connects a wallet
// before anything personal, and verifies that connected wallet for an unknown buyer; these tests
// hold the other two ways in to the same rule: a buyer already known (this device's, or a link's
// signed accountId), and a link signed for a walletAddress.
import { describe, expect, it } from 'vitest'
import type { PayoutQuote } from '../../../../src/api/payout'
import { type Context, type PayoutEvent, type PayoutState, emptyDraft, transition } from '../../../../src/flows/payout/machine'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const VERIFIED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const NOW = Date.parse('2026-11-24T10:00:00Z')
const ctx: Context = { destination: 'bank', source: { chainId: 8453, token: TOKEN, symbol: 'USDC', decimals: 6 }, decimalMark: '.', emptyForm: () => ({ kind: 'fiat', amount: '', currency: 'EUR', country: '', rail: '' }) }
const quote: PayoutQuote = { quoteId: 'bq_1', cryptoAmount: '22.282609', fiatAmount: '20.00', rate: '0.92', rail: 'sepa_instant', estimatedSettlement: 'instant', providerFee: '0.25', ourFee: '0.10', expiresAt: new Date(NOW + 3_600_000).toISOString() }
const wallet = { id: 'w|other', name: 'Other', rdns: 'other' }
const same = (a?: string, b?: string) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

const quoted = (buyer?: { accountId: string; walletId: string; wallet: string }): PayoutState => ({
  tag: 'quote',
  ...(buyer ? { buyer } : {}),
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  quote,
  quotedAt: NOW,
  work: 'idle',
})
const run = (state: PayoutState, c: Context, ...events: PayoutEvent[]) => events.reduce((s, e) => transition(s, e, c), state)

/** Whether the payout reached its beneficiary with a wallet other than the one its buyer verified. */
const fundedByAnother = (s: PayoutState) => s.tag === 'beneficiary' && !same(s.funder?.sender, s.buyer.wallet)

describe('the wallet that funds the payout is the buyer’s verified one', () => {
  it('a known buyer (this device’s, or a signed accountId) connecting another wallet does not go on under the known account', () => {
    const known = { accountId: 'acc_1', walletId: 'w_1', wallet: VERIFIED }
    const s = run(quoted(known), ctx, { type: 'CONFIRM', now: NOW }, { type: 'CONNECT', wallet }, { type: 'CONNECTED', sender: OTHER })
    expect(fundedByAnother(s)).toBe(false)
  })

  it('under a link signed for a wallet, connecting another one does not verify the signed one and fund from the other', () => {
    const signed = { ...ctx, linkWallet: VERIFIED }
    const identity = run(quoted(), signed, { type: 'CONFIRM', now: NOW }, { type: 'CONNECT', wallet }, { type: 'CONNECTED', sender: OTHER })
    // The identity steps verify the signed wallet, while the connected one stays the funder.
    if (identity.tag !== 'identity') return expect(identity.tag).not.toBe('beneficiary')
    const onboarded = transition({ ...identity, tag: 'details', work: 'submitting' } as PayoutState, { type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }, signed)
    expect(fundedByAnother(onboarded)).toBe(false)
  })

  it('held: an unknown buyer without a signed wallet verifies the wallet it connected', () => {
    const identity = run(quoted(), ctx, { type: 'CONFIRM', now: NOW }, { type: 'CONNECT', wallet }, { type: 'CONNECTED', sender: OTHER })
    expect(identity).toMatchObject({ tag: 'identity', form: { wallet: OTHER } })
  })
})
