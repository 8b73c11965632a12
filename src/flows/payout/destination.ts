// The destination sub-machine: where the fiat lands, named once the price, the wallet and the buyer
// are known. A bank payout's beneficiary (beneficiary.ts, its form's schemas beneficiarySchemas.ts)
// or a card payout's card page (cardStep.ts): the flow's entry chooses one (Context.destination), and
// the composing machine (machine.ts) hands it its own events and reads how it ends. What a
// beneficiary form is made of (its schemas, fields, words and problems) is below. Pure.
import type { Beneficiary, PayoutQuote } from '../../api/payout'
import { isExpired } from '../../kernel/quote'
import type { Problem, Work } from '../../kernel/types'
import type { Destination, Known, OfferedSchemaId, QuotedBase } from './base'
import type { PayoutRecord } from './record'
import type { FieldProblem } from '../../lib/accountChecks'

export type BeneficiaryState = {
  tag: 'beneficiary'
  problems: Record<string, FieldProblem>
  /** `creating`: POST /bank/payout is under way (with the persisted reference), sending `sending`. */
  work: Work<'creating'>
  /** What the form sends, built by its checks when it was submitted (beneficiary.ts); the request is made of it (bank.ts). */
  sending?: Sending
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

/**
 * A checked form, as it is sent: the beneficiary (`name`, `schema` and the schema's own fields,
 * each normalised), the purpose where the schema offers one, and the names of its EVM addresses,
 * which the request sends with their EIP-55 checksum (bank.ts, with viem's keccak).
 */
export type Sending = { beneficiary: Beneficiary; purpose?: string; addresses: readonly string[] }

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
  /** The request's own checks (an address's EIP-55 checksum, bank.ts) found these fields wrong: nothing was sent. */
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

// ---------------------------------------------------------------------------------------------
// A beneficiary form (partner-api.md: "Beneficiary"): the schemas offered, a schema's fields, the
// words they show. What can be wrong with a field is lib/accountChecks.ts's FieldProblem: the form's
// checks (beneficiary.ts, run once when it is submitted, with lib/accountChecks.ts), the request's
// (an address's checksum, bank.ts) and the service's refusal (creating.ts) find one, and
// errors/payoutWords.ts words it.

/**
 * A word the form shows (a schema's name, a field's label or hint, an option): its key in the
 * beneficiary's catalog, i18n/en-beneficiary.ts, which the form's screen loads and says (a test
 * holds every one to that catalog; the machine's modules import no i18n).
 */
export type Word = `payout.${'schema' | 'field'}.${string}`

export type BeneficiaryField = {
  /** The name sent; a dotted one ("beneficiaryAddress.city") is a field of a nested object. */
  name: string
  label: Word
  hint?: Word
  required: boolean
  /** `select` offers `options`; `country` offers ISO 3166-1 alpha-2 codes (see lib/country.ts). */
  input: 'text' | 'select' | 'country'
  options?: ReadonlyArray<{ value: string; label: Word }>
  /** The value a new form starts with. */
  initial?: string
  autocomplete: string
  inputMode?: 'text' | 'numeric' | 'tel'
  autocapitalize?: 'characters' | 'words' | 'off'
  maxLength: number
  /** What is sent for what was typed: spaces out of an IBAN, capitals in a SWIFT code. */
  normalise: (raw: string) => string
  /** The normalised value's problem, if any (emptiness is checked before). */
  check?: (value: string) => FieldProblem | undefined
  /**
   * An EVM address: held to its EIP-55 checksum and sent with it where the request is built
   * (bank.ts, Sending's `addresses`), so viem's keccak comes with the request, not with the form.
   */
  eip55?: true
}

export type BeneficiarySchema = {
  id: OfferedSchemaId
  label: Word
  fields: readonly BeneficiaryField[]
  /**
   * Whether the payout form offers the optional `purpose`. The contract says only that "some
   * corridors require it" without naming them, so it is never required here; it is offered on
   * international wires, which carry a remittance purpose.
   */
  purpose: boolean
}

export type { FieldProblem }
