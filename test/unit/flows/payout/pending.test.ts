import { beforeAll, describe, expect, it } from 'vitest'
import type { PayoutQuote } from '../../../../src/api/payout'
import { type Context, type Pending, type PayoutState, emptyDraft, initialState, transition } from '../../../../src/flows/payout/machine'
import { payoutChecks, pendingStore } from '../../../../src/flows/payout/persisted'
import { emptyApplicant, initialIdentity } from '../../../../src/identity/machine'
import { memoryStorage } from '../../helpers/memoryStorage'

// The payout the identity steps interrupt survives the identity provider's full navigation in this
// tab (sessionStorage): the ask, the price, the wallet's address, the beneficiary as typed.
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const NOW = Date.parse('2026-11-24T10:00:00Z')
const quote: PayoutQuote = {
  quoteId: 'bq_1',
  cryptoAmount: '22.282609',
  fiatAmount: '20.00',
  rate: '0.92',
  rail: 'sepa_instant',
  estimatedSettlement: 'instant',
  providerFee: '0.25',
  ourFee: '0.10',
  expiresAt: new Date(NOW + 7_200_000).toISOString(),
}
const ctx: Context = {
  destination: 'bank',
  source: { chainId: 8453, token: '0x5FbDB2315678afecb367f032d93F642f64180aa3', symbol: 'USDC', decimals: 6 },
  decimalMark: '.',
  emptyForm: () => ({ kind: 'fiat', amount: '', currency: 'EUR', country: '', rail: '' }),
}
const pending: Pending = {
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  funder: { sender: WALLET, wallet: { id: 'w', name: 'W', rdns: 'w', icon: 'data:image/svg+xml,<svg/>' } },
  quoted: { quote, quotedAt: NOW },
}

beforeAll(() => payoutChecks.load())

describe('the payout kept across the identity provider', () => {
  it('taken once: the ask, the price and the wallet address come back; the wallet itself and the limits do not', () => {
    const store = pendingStore(memoryStorage())
    store.put({ ...pending, limits: [] })
    const back = store.take()
    expect(back).toEqual({ form: pending.form, draft: pending.draft, ask: pending.ask, funder: { sender: WALLET }, quoted: { quote, quotedAt: NOW } })
    expect(store.take()).toBeUndefined()
  })

  it('a tampered record is dropped, never used (an amount that is not a decimal, a wallet that is not an address)', () => {
    const session = memoryStorage()
    const store = pendingStore(session)
    store.put(pending)
    const raw = JSON.parse(session.getItem(store.key) as string)
    session.setItem(store.key, JSON.stringify({ ...raw, ask: { ...raw.ask, amount: '2e3' } }))
    expect(store.take()).toBeUndefined()
    store.put(pending)
    session.setItem(store.key, JSON.stringify({ ...raw, funder: { sender: 'evil' } }))
    expect(store.take()).toBeUndefined()
  })

  it('back with the code: verified, straight on to the beneficiary with the price kept (no second quote)', () => {
    const store = pendingStore(memoryStorage())
    store.put(pending)
    const start = initialState({ identity: initialIdentity({ ...emptyApplicant, wallet: WALLET }, 'code_1'), pending: store.take() }, ctx)
    expect(start.tag).toBe('details')
    const next = transition({ ...(start as Extract<PayoutState, { tag: 'details' }>), work: 'submitting' }, { type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }, ctx)
    expect(next).toMatchObject({ tag: 'beneficiary', buyer: { accountId: 'acc_9', wallet: WALLET }, quote: { quoteId: 'bq_1' }, funder: { sender: WALLET } })
  })
})
