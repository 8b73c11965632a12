// The header's "Step N of M" for the payout, one number per screen: the form (1), the price (2),
// the wallet that pays (3); for a buyer the service does not know yet, verify (4) and the details
// (5); then where the money lands, the transfer and its status. The total is decided as a payout
// starts (whether the buyer is known is known then), kept through its every screen and across a
// reload (Payouts.tsx keeps it in this tab), and decided anew only for a new payout. A higher
// tier's detour is counted under the step it interrupts. Pure.
import { isIdentityState } from '../../identity/machine'
import type { Step } from '../../kernel/types'
import type { PayoutState } from './state'

/** A known buyer's payout has six screens; a new buyer's eight (the identity steps' two). */
export const KNOWN_BUYER_STEPS = 6
export const NEW_BUYER_STEPS = 8

/** The total of a payout starting at this state: the identity steps count when its buyer is not known yet. */
export function stepsFrom(state: PayoutState): number {
  if (isIdentityState(state)) return state.pending?.tier ? KNOWN_BUYER_STEPS : NEW_BUYER_STEPS
  return state.buyer ? KNOWN_BUYER_STEPS : NEW_BUYER_STEPS
}

/**
 * The total after a move: the same, unless the buyer starts a new payout (start over, a new payout
 * after the result: from a payout that exists back to the form) or says "Not you?" (forgetBuyer).
 */
export function stepsAfter(prev: PayoutState, next: PayoutState, total: number): number {
  if (next.tag !== 'form' || prev === next) return total
  const fromPayout = prev.tag === 'funding' || prev.tag === 'tracking' || prev.tag === 'result'
  return fromPayout || (next.forgetBuyer && !(prev.tag === 'form' && prev.forgetBuyer)) ? stepsFrom(next) : total
}

/** A total kept across a reload, if it is one a payout has (storage is the page's, never trusted as is). */
export const keptSteps = (value: unknown): number | undefined => (value === KNOWN_BUYER_STEPS || value === NEW_BUYER_STEPS ? value : undefined)

/** Where the header stands in a payout of `of` screens. */
export function stepOf(state: PayoutState, of: number): Step {
  const last = of
  const destination = last - 2
  if (isIdentityState(state)) {
    // A higher tier's detour (or the identity steps in a payout counted without them) sits under the destination.
    if (state.pending?.tier || of < NEW_BUYER_STEPS) return { step: destination, of }
    return { step: state.tag === 'details' ? 5 : 4, of }
  }
  switch (state.tag) {
    case 'form':
    case 'quoting':
      // The form's screen shows while a price is asked (again).
      return { step: 1, of }
    case 'quote':
      return { step: 2, of }
    case 'connect':
      return { step: 3, of }
    case 'beneficiary':
    case 'card':
      return { step: destination, of }
    case 'funding':
      return { step: last - 1, of }
    default:
      return { step: last, of }
  }
}
