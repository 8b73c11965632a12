// The identity steps inside the payout (identity/machine.ts, composed): they begin once the wallet
// that funds it is connected for a buyer the service does not know, or when the service asks this
// buyer for a higher verification tier; they end back in the payout with the buyer known, what
// was typed and the price kept. Pure.
import { type IdentityEvent, emptyApplicant, higherTierStep, identityTransition, initialIdentity, onboardAgain } from '../../identity/machine'
import type { Problem } from '../../kernel/types'
import { type Base, type Funder, type Pending, type QuotedBase, carried, emptyDraft } from './base'
import type { DestinationState } from './destination'
import type { Context, FormState, PayoutIdentity, QuoteState, QuotingState } from './state'

/** The identity steps end in the payout: on to what it still lacks with the price it holds (the composer's `onward`), or a new price. */
export type IdentityExit = { tag: 'onward'; quote: QuoteState }

/** A buyer the service does not know: the wallet verified is the one connected, or the one the partner signed into the link. */
export function verifyBuyer(state: QuotedBase, funder: Funder, ctx: Context): PayoutIdentity {
  const { ask, quote, quotedAt } = state
  const pending: Pending = { form: state.form, limits: state.limits, draft: state.draft, ask, funder, quoted: { quote, quotedAt } }
  return { ...initialIdentity({ ...emptyApplicant, ...state.applicant, wallet: ctx.linkWallet ?? funder.sender }), pending }
}

/**
 * The service asked for a higher verification tier (requires_action): back to the identity provider
 * with the same details, then the same request goes again (under its own reference). Nothing typed
 * is lost on the way.
 */
export function higherTier(state: DestinationState, problem: Problem): PayoutIdentity {
  const { buyer, ask, quote, quotedAt } = state
  const pending: Pending = {
    form: state.form,
    limits: state.limits,
    draft: state.draft,
    ask,
    funder: state.funder,
    quoted: { quote, quotedAt },
    tier: 'higher',
    buyer,
    ...(state.cardSession ? { cardSession: state.cardSession } : {}),
  }
  return { ...higherTierStep(state.applicant, buyer.wallet, problem), pending }
}

export function identityStep(state: PayoutIdentity, event: IdentityEvent, ctx: Context): PayoutIdentity | FormState | QuotingState | QuoteState | IdentityExit {
  const { pending } = state
  // Leaving the verification before it began: back to the price, or (a higher tier) to the
  // destination as typed; the price is asked again if this page lost it.
  if (event.type === 'BACK' && state.tag === 'identity' && pending) {
    const base: Base = { ...carried(pending), applicant: state.form }
    if (!pending.quoted) return { ...base, tag: 'quoting', ask: pending.ask, requote: true }
    const quote: QuoteState = { ...base, tag: 'quote', ask: pending.ask, ...pending.quoted, work: 'idle' }
    return pending.tier ? { tag: 'onward', quote } : quote
  }
  const next = identityTransition(state, event)
  // A higher tier verified: the details typed before go again with the new code, unasked.
  if (next.tag !== 'onboarded') return { ...(pending?.tier && event.type === 'AUTH_CODE' ? onboardAgain(next) : next), pending }
  const buyer = next.account
  // The details typed are kept while this page lives: a higher tier asked later onboards with them again.
  const applicant = state.form
  if (!pending) return { tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft(), applicant }
  const base: Base = { ...carried(pending), buyer, applicant }
  // The price this page still holds goes on to the destination (its expiry re-asks it there); else it is asked again.
  if (pending.quoted) return { tag: 'onward', quote: { ...base, tag: 'quote', ask: pending.ask, ...pending.quoted, work: 'idle' } }
  return { ...base, tag: 'quoting', ask: pending.ask, requote: true }
}

// Shared with the one-off bank deposit (identity/machine.ts).
export { onboardAgain }
