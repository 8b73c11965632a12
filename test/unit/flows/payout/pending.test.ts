import { beforeAll, describe, expect, it, vi } from 'vitest'
import type { CardPayoutQuote } from '../../../../src/api/schemas-cardPayout'
import { type Pending, emptyDraft } from '../../../../src/flows/payout/base'
import { cardCalls } from '../../../../src/flows/payout/card'
import type { PayoutContext } from '../../../../src/flows/payout/context'
import { type PayoutState, initialState, transition } from '../../../../src/flows/payout/machine'
import { payoutChecks, pendingStore } from '../../../../src/flows/payout/persisted'
import { emptyApplicant, initialIdentity } from '../../../../src/identity/machine'
import { memoryStorage } from '../../helpers/memoryStorage'
import { BUYER as WALLET, NOW, bankQuote, ctx, ctxOf, toDestination, toIdentity } from '../../helpers/payout'

// The payout the identity steps interrupt survives the identity provider's full navigation in this
// tab (sessionStorage): the ask, the price, the wallet's address, the beneficiary as typed.
const quote = bankQuote({ expiresAt: new Date(NOW + 7_200_000).toISOString() })
const pending: Pending = {
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  funder: { sender: WALLET, wallet: { kind: 'injected' as const, id: 'w', name: 'W', rdns: 'w', icon: 'data:image/svg+xml,<svg/>' } },
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
    const next = transition(
      { ...(start as Extract<PayoutState, { tag: 'details' }>), work: 'submitting' },
      toIdentity({ type: 'ONBOARDED', accountId: 'acc_9', walletId: 'w_9', kycStatus: 'approved' }),
      ctx,
    )
    expect(next).toMatchObject({ tag: 'beneficiary', buyer: { accountId: 'acc_9', wallet: WALLET }, quote: { quoteId: 'bq_1' }, funder: { sender: WALLET } })
  })
})

// Issue 31, item 4: a card payout leaves the page for the card page before it is created; when the
// service then asks a higher tier, the applicant's details typed before are offered again.
describe('a card payout kept across the card page', () => {
  const cardQuote: CardPayoutQuote = {
    quoteId: 'cq_1',
    cryptoAmount: '22.50',
    fiatAmount: '20.00',
    rate: '0.92',
    providerFee: '0.50',
    ourFee: '0.10',
    expiresAt: new Date(NOW + 900_000).toISOString(),
  }
  const buyer = { accountId: 'acc_1', walletId: 'w_1', wallet: WALLET }
  const applicant = {
    ...emptyApplicant,
    wallet: WALLET,
    name: 'Grace Hopper',
    email: 'grace@example.com',
    phone: '+4915112345678',
    nationality: 'DE',
    country: 'DE',
  }
  const cardCtx = ctxOf('card')

  it('the applicant typed before the card page prefills the higher tier asked after it', async () => {
    const store = pendingStore(memoryStorage())
    const atCard = {
      tag: 'card',
      buyer,
      applicant,
      form: pending.form,
      draft: emptyDraft(),
      ask: pending.ask,
      funder: pending.funder,
      quote: cardQuote,
      quotedAt: NOW,
      work: 'opening',
    } as Extract<PayoutState, { tag: 'card' }>
    const navigate = vi.fn()
    const partner = { post: async () => ({ id: 'cs_1', url: 'https://cards.example/card-payout-page?id=cs_1' }) }
    const effects = {
      partner,
      config: { cardHosts: ['cards.example'] },
      returnUrl: () => 'https://widget.example/?flow=cardPayout',
      navigate,
      pending: store,
      dispatch: vi.fn(),
      destination: vi.fn(),
    }
    await cardCalls.openCard!(effects as unknown as PayoutContext, atCard, () => true)
    expect(navigate).toHaveBeenCalledWith('https://cards.example/card-payout-page?id=cs_1')
    // Back from the card page (a new page): the payout is created, and the service asks the higher tier.
    const back = initialState(
      { buyer, identity: initialIdentity({ ...emptyApplicant }), pending: store.take(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } },
      cardCtx,
    )
    expect(back).toMatchObject({ tag: 'card', work: 'creating', cardSession: 'cs_1' })
    const higher = transition(
      back,
      toDestination({ type: 'CREATE_FAILED', problem: { key: 'error.requiresAction', code: 'requires_action' }, requiresAction: true }),
      cardCtx,
    )
    expect(higher).toMatchObject({ tag: 'identity', form: applicant, pending: { tier: 'higher', cardSession: 'cs_1' } })
  })
})
