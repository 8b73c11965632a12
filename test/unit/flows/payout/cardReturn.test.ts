// Review of issue 31 (card payout): the way back from the card page (`cardSession=<id>&result=ok`)
// is matched against the payout this tab kept before leaving (cardPayout-pending), then the payout
// is created. Held here: the machine's own rules elsewhere, "a stored payout is resumed only for
// the buyer it belongs to" (ownedBy, with a link signed for a wallet) and "the quote expires into
// a new price, never into a payout".
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { type Pending, emptyDraft } from '../../../../src/flows/payout/base'
import { cardCalls } from '../../../../src/flows/payout/card'
import { type PayoutState, initialState } from '../../../../src/flows/payout/machine'
import { pendingStore } from '../../../../src/flows/payout/persisted'
import { emptyApplicant, initialIdentity } from '../../../../src/identity/machine'
import { scopedStorage } from '../../../../src/storage/safeStorage'
import { settle } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import {
  BUYER as WALLET_A,
  DEPOSIT,
  buyerA,
  buyerB,
  NOW,
  OTHER as WALLET_B,
  cardQuote,
  ctxOf,
  drive as drivePayout,
  fakePartner as aPartner,
} from '../../helpers/payout'

const ctx = ctxOf('card')
const quote = (expiresAt: number) => cardQuote({ expiresAt: new Date(expiresAt).toISOString() })
const identity = initialIdentity({ ...emptyApplicant, wallet: '' })

/** What openCard kept in this tab before the card page, for buyer A. */
const pendingOf = (expiresAt = NOW + 600_000): Pending => ({
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: '', rail: '' },
  draft: emptyDraft(),
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: '' },
  funder: { sender: WALLET_A },
  quoted: { quote: quote(expiresAt), quotedAt: NOW - 60_000 },
  buyer: buyerA,
  cardSession: 'cs_1',
})

describe('back from the card page: whose payout', () => {
  it('a link signed for another wallet does not create the payout kept for buyer A', () => {
    // Buyer A left for the card page; this tab now opens a link the partner signed for wallet B
    // (identityStart gives no stored buyer then: knownBuyer refuses A's account for that link).
    const start = initialState({ identity, pending: pendingOf(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, { ...ctx, linkWallet: WALLET_B })
    expect(start.tag === 'card' && start.buyer.accountId).not.toBe('acc_A')
  })

  it('a link signed for buyer B (accountId, walletId, walletAddress) does not create the payout kept for buyer A', () => {
    const start = initialState(
      { buyer: buyerB, identity, pending: pendingOf(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } },
      { ...ctx, linkWallet: WALLET_B },
    )
    expect(start.tag === 'card' && start.buyer.accountId).not.toBe('acc_A')
  })

  it('held: a way back naming another session creates nothing', () => {
    const start = initialState({ buyer: buyerA, identity, pending: pendingOf(), cardReturn: { session: 'cs_forged', result: 'ok', at: NOW } }, ctx)
    expect(start).toMatchObject({ tag: 'card', work: 'idle' })
  })
})

/** The card payout's backend: its quote, and the payout created with the session that came back. */
const fakePartner = () =>
  aPartner({
    '/card/payout': [
      {
        id: 'cp_1',
        depositAddress: DEPOSIT,
        depositAmount: '21.5',
        chain: 8453,
        status: 'pending',
        expiresAt: new Date(NOW + 3_600_000).toISOString(),
        card: { brand: 'visa', last4: '4242' },
      },
    ],
    '/card/payout/quote': [quote(NOW + 600_000)],
  })

function drive(initial: PayoutState, partner: PartnerHttp, now: number) {
  return drivePayout(initial, { partner, ctx, calls: cardCalls, name: 'cardPayout', now: () => now, newReference: () => 'po_1' })
}

describe('back from the card page: the price kept', () => {
  it('an expired price is asked again, never sent to create the payout', async () => {
    // The buyer spent longer on the card page than the card quote lasts.
    const expiredAt = NOW - 1_000
    const partner = fakePartner()
    const start = initialState({ buyer: buyerA, identity, pending: pendingOf(expiredAt), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, ctx)
    drive(start, partner, NOW)
    await settle(10)
    const creations = partner.calls.filter((c) => c.path === '/card/payout')
    expect(creations.map((c) => c.body.quoteId)).not.toContain('cq_1')
  })

  it('held: a price still valid creates the payout once, with the session that came back', async () => {
    const partner = fakePartner()
    const start = initialState({ buyer: buyerA, identity, pending: pendingOf(), cardReturn: { session: 'cs_1', result: 'ok', at: NOW } }, ctx)
    const run = drive(start, partner, NOW)
    await settle(10)
    expect(partner.calls.filter((c) => c.path === '/card/payout').map((c) => c.body)).toEqual([
      { quoteId: 'cq_1', accountId: 'acc_A', cardSession: 'cs_1', reference: 'po_1' },
    ])
    expect(run.state()).toMatchObject({ tag: 'funding', record: { id: 'cp_1', card: { last4: '4242' } } })
  })
})

describe('whose pending record', () => {
  it("held: on the widget's origin another partner's (or another service's) tab record is not read, nor the other payout's", () => {
    const tab = memoryStorage()
    const acme = (apiBase = 'https://api.example') => scopedStorage(tab, { partner: 'acme', apiBase })
    pendingStore(acme(), 'cardPayout').put(pendingOf())
    expect(pendingStore(scopedStorage(tab, { partner: 'evil', apiBase: 'https://api.example' }), 'cardPayout').take()).toBeUndefined()
    expect(pendingStore(acme('https://other.example'), 'cardPayout').take()).toBeUndefined()
    expect(pendingStore(acme(), 'payout').take()).toBeUndefined()
    expect(pendingStore(acme(), 'cardPayout').take()).toMatchObject({ cardSession: 'cs_1', buyer: { accountId: 'acc_A' } })
  })
})
