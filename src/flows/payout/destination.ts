// The destination sub-machine: where the fiat lands, named once the price, the wallet and the buyer
// are known. A bank payout's beneficiary (beneficiaryStep.ts) or a card payout's card page
// (cardStep.ts): the flow's entry chooses one (Context.destination), and the composing machine
// (machine.ts) hands it its own events and reads how it ends. Pure.
import type { PayoutQuote } from '../../api/payout'
import { isExpired } from '../../kernel/quote'
import type { Problem, Work } from '../../kernel/types'
import type { Destination, Known, QuotedBase } from './base'
import type { FieldProblem } from './fieldProblem'
import type { PayoutRecord } from './record'

export type BeneficiaryState = {
  tag: 'beneficiary'
  problems: Record<string, FieldProblem>
  /** `creating`: POST /bank/payout is under way (with the persisted reference). */
  work: Work<'creating'>
  problem?: Problem
} & QuotedBase &
  Known & { quote: PayoutQuote }

/**
 * A card payout's card: entered on the card provider's page (`opening`: its session is asked
 * and the page opened, a full navigation), then the payout created with the session that came
 * back (`creating`). `cancelled`: the buyer left the card page without a card.
 */
export type CardState = { tag: 'card'; work: Work<'opening' | 'creating'>; problem?: Problem; cancelled?: boolean } & QuotedBase & Known

export type DestinationState = BeneficiaryState | CardState

export type DestinationEvent =
  /** The beneficiary's fields that changed. */
  | { type: 'EDIT'; values?: Record<string, string>; purpose?: string }
  /** Create the payout (the card payout: open the card page first); `now`: the screen's clock. */
  | { type: 'SUBMIT'; now: number }
  | { type: 'BACK' }
  /** The card page could not be opened (its session, a host the registry does not name). */
  | { type: 'CARD_FAILED'; problem: Problem }
  | { type: 'CREATED'; record: PayoutRecord }
  /**
   * `field`: the beneficiary field the service refused, and its mark; `expired`: the quote ran out
   * (quote again); `requiresAction`: the service wants a higher verification tier, and the same
   * request goes again once verified (its reference is the request's own).
   */
  | { type: 'CREATE_FAILED'; problem: Problem; field?: { name: string; problem: FieldProblem }; expired?: boolean; requiresAction?: boolean }
  /** The request's own checks (an address's EIP-55 checksum, beneficiaryRequest.ts) found these fields wrong: nothing was sent. */
  | { type: 'INVALID'; problems: Record<string, FieldProblem> }

/** How the step ends: back to the price, a new price, the payout created, or a higher verification tier asked. */
export type DestinationExit = { tag: 'back' } | { tag: 'requote' } | { tag: 'created'; record: PayoutRecord } | { tag: 'higherTier'; problem: Problem }

export type DestinationStep = {
  kind: Destination
  /** The step as the price leads into it, the buyer known. */
  enter(state: QuotedBase & Known): DestinationState
  transition(state: DestinationState, event: DestinationEvent): DestinationState | DestinationExit
}

/** An expired price is priced again, never sent (the service would refuse it anyway). */
export const priceGone = (state: DestinationState, now: number) => isExpired(state.quote.expiresAt, now)

/** What both steps do alike once the service answered, or the buyer goes back. Undefined: not this event. */
export function answered(state: DestinationState, event: DestinationEvent): DestinationExit | undefined {
  const idle = state.work === 'idle'
  if (event.type === 'BACK') return idle ? { tag: 'back' } : undefined
  if (state.work !== 'creating') return undefined
  if (event.type === 'CREATED') return { tag: 'created', record: event.record }
  if (event.type !== 'CREATE_FAILED') return undefined
  if (event.requiresAction) return { tag: 'higherTier', problem: event.problem }
  return event.expired ? { tag: 'requote' } : undefined
}
