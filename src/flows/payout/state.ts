// The payout's states and events as the composing machine (machine.ts) sees them: its own stages
// (the price: form, quoting, quote) beside its sub-machines' (identity/machine.ts, funding.ts,
// destination.ts), and each sub-machine's events under its own name. Pure types.
import type { LimitEntry } from '../../api/reference'
import type { Route } from '../../lib/routeDefaults'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import type { QuoteEvent } from '../../kernel/quote'
import type { Work } from '../../kernel/types'
import type { AnyPayoutQuote, AskRule, Base, FormError, Pending, PayoutForm, QuoteAsk, QuotedBase, Settings } from './base'
import type { DestinationEvent, DestinationState, DestinationStep } from './destination'
import type { FundingEvent, FundingStates } from './funding'

/** The machine's context: what the embedding fixed, how a new form starts, and the destination step its entry chose (beneficiary.ts, cardStep.ts). */
export type Context = Settings & { destination: DestinationStep }

/**
 * `abandoned`: the unfunded payout the buyer started over from, or the ended one a new payout follows (its record and reference go).
 * `forgetBuyer`: "Not you?" (the stored buyer and every bank record of this device go).
 */
export type FormState = { tag: 'form'; error?: FormError; abandoned?: string; forgetBuyer?: boolean } & Base
export type QuotingState = { tag: 'quoting'; ask: QuoteAsk; requote: boolean } & Base
export type QuoteState = { tag: 'quote'; work: Work<never> } & QuotedBase

/** The identity steps, carrying the payout they interrupt (none when the way back lost it). */
export type PayoutIdentity = IdentityState & { pending?: Pending }

export type PayoutState = PayoutIdentity | FormState | QuotingState | QuoteState | FundingStates | DestinationState

/**
 * The price's events are the machine's own (README's vocabulary: EDIT, SUBMIT, CONFIRM, BACK, and
 * the kernel's quote events in every stage that holds a price); each sub-machine's go under its name.
 */
export type PayoutEvent =
  /** `route`: where the form starts, a route that exists (lib/routeDefaults.ts), unless the buyer chose already. */
  | { type: 'LIMITS'; limits: LimitEntry[]; route?: Route }
  /** The form's fields that changed. */
  | ({ type: 'EDIT' } & Partial<PayoutForm>)
  /** The form asks for a quote. */
  | { type: 'SUBMIT' }
  | QuoteEvent<AnyPayoutQuote>
  /** The quote answered another amount than the buyer asked (quoteCheck.ts). */
  | { type: 'QUOTE_REJECTED'; rule: AskRule }
  /** The buyer goes ahead from the quote (`now`: the screen's clock). */
  | { type: 'CONFIRM'; now: number }
  | { type: 'BACK' }
  /** "Not you?" on the form: the stored buyer is someone else; forget every bank record and verify again. */
  | { type: 'NOT_YOU' }
  | { type: 'IDENTITY'; event: IdentityEvent }
  | { type: 'DESTINATION'; event: DestinationEvent }
  | { type: 'FUNDING'; event: FundingEvent }

/** A stage's state. */
export type StateOf<T extends PayoutState['tag']> = Extract<PayoutState, { tag: T }>
