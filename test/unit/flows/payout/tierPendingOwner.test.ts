// Second review of issue 31: the payout a tab keeps across the identity provider after 422
// requires_action (Pending with tier 'higher') carries the buyer it was refused for. The card page's
// way back is taken only for the buyer this link starts with (initialState: ownedBy, walletId);
// the tier's way back is not: under a link the partner signed for another wallet (or another
// buyer), the identity step's Back resumes the kept payout for its own buyer (their account, their
// beneficiary as typed, their card session), and the other buyer then creates it.
// A shared device: buyer B left for the identity provider's higher tier; the same tab then opens a
// link signed for buyer A.
import { describe, expect, it } from 'vitest'
import type { Pending } from '../../../../src/flows/payout/base'
import { type PayoutState, initialState, transition } from '../../../../src/flows/payout/machine'
import { emptyApplicant, initialIdentity } from '../../../../src/identity/machine'
import {
  BUYER as WALLET_A,
  NOW,
  buyerA,
  buyerB,
  OTHER as WALLET_B,
  bankQuote as aBankQuote,
  cardQuote as aCardQuote,
  ctxOf,
  toDestination,
  toIdentity,
} from '../../helpers/payout'

const bankQuote = aBankQuote()
const cardQuote = aCardQuote()
// Buyer B's beneficiary as typed before the service asked for a higher tier.
const B_IBAN = 'DE89 3704 0044 0532 0130 00'

/** What createFailed kept for buyer B (requires_action), taken by this tab on load. */
const tierPendingOfB = (card: boolean): Pending => ({
  form: { kind: 'fiat', amount: '20', currency: 'EUR', country: card ? '' : 'DE', rail: '' },
  draft: card
    ? { values: {}, purpose: '' }
    : { schema: 'bank_sepa', values: { name: 'Bea B', accountType: 'individual', firstName: 'Bea', lastName: 'B', IBAN: B_IBAN }, purpose: '' },
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: card ? '' : 'DE' },
  funder: { sender: WALLET_B },
  quoted: { quote: card ? cardQuote : bankQuote, quotedAt: NOW - 60_000 },
  tier: 'higher',
  buyer: buyerB,
  ...(card ? { cardSession: 'cs_B' } : {}),
})

// The identity steps as identityStart gives them under the link signed for A: its wallet, no code yet.
const identityForA = initialIdentity({ ...emptyApplicant, wallet: WALLET_A })

const buyerOf = (s: PayoutState) => ('buyer' in s ? s.buyer?.accountId : undefined)

describe("a higher tier's kept payout, under a link signed for another buyer", () => {
  it('a link signed for buyer A (accountId, walletId, walletAddress): Back from the identity step does not resume buyer B’s payout', () => {
    const ctx = { ...ctxOf('bank'), linkWallet: WALLET_A }
    const start = initialState({ buyer: buyerA, identity: identityForA, pending: tierPendingOfB(false) }, ctx)
    const back = transition(start, toIdentity({ type: 'BACK' }), ctx)
    // Before: beneficiary, buyer acc_B, B's IBAN as typed, ready to create under B's account in A's tab.
    expect(buyerOf(back)).not.toBe('acc_B')
    expect(back.tag === 'beneficiary' ? back.draft.values.IBAN : undefined).not.toBe(B_IBAN)
  })

  it('a link signed for wallet A only: Back from the identity step does not resume buyer B’s payout', () => {
    const ctx = { ...ctxOf('bank'), linkWallet: WALLET_A }
    // knownBuyer gives no stored buyer for a link signed for another wallet.
    const start = initialState({ identity: identityForA, pending: tierPendingOfB(false) }, ctx)
    const back = transition(start, toIdentity({ type: 'BACK' }), ctx)
    expect(buyerOf(back)).not.toBe('acc_B')
  })

  it('a card payout: buyer B’s card session does not come back to buyer A’s card step', () => {
    const ctx = { ...ctxOf('card'), linkWallet: WALLET_A }
    const start = initialState({ buyer: buyerA, identity: identityForA, pending: tierPendingOfB(true) }, ctx)
    const back = transition(start, toIdentity({ type: 'BACK' }), ctx)
    expect(buyerOf(back)).not.toBe('acc_B')
    expect(back.tag === 'card' ? back.cardSession : undefined).not.toBe('cs_B')
  })

  it('a card payout: buyer A verifying under the link does not create with buyer B’s card session', () => {
    const ctx = { ...ctxOf('card'), linkWallet: WALLET_A }
    // Back from the identity provider with a code, under the link signed for wallet A.
    const details = initialIdentity(
      { ...emptyApplicant, wallet: WALLET_A, nationality: 'DE', country: 'DE', phone: '+49 30 1234567', name: 'Ann A', email: 'ann@example.com' },
      'code_A',
    )
    const start = initialState({ identity: details, pending: tierPendingOfB(true) }, ctx)
    const submitted = transition(start, toIdentity({ type: 'SUBMIT' }), ctx)
    const onboarded = transition(submitted, toIdentity({ type: 'ONBOARDED', accountId: 'acc_A', walletId: 'w_A', kycStatus: 'approved' }), ctx)
    // The card step's own create (the buyer's click on it).
    const creating = transition(onboarded, toDestination({ type: 'SUBMIT', now: NOW }), ctx)
    // Before: card step for acc_A, creating with cs_B (the card B entered): A's money to B's card.
    expect(creating.tag === 'card' && creating.work === 'creating' ? creating.cardSession : undefined).not.toBe('cs_B')
  })

  it('held: buyer B’s own way back (no link for another wallet) resumes B’s payout', () => {
    const ctx = ctxOf('bank')
    const start = initialState({ buyer: buyerB, identity: initialIdentity({ ...emptyApplicant, wallet: WALLET_B }), pending: tierPendingOfB(false) }, ctx)
    const back = transition(start, toIdentity({ type: 'BACK' }), ctx)
    expect(back).toMatchObject({ tag: 'beneficiary', buyer: { accountId: 'acc_B' } })
  })
})
