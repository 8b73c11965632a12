// What the payout's stages carry from one to the next before the payout exists: the ask, the price,
// the wallet that funds it, the beneficiary as typed, and who the buyer is once known. Shared by the
// composing machine (machine.ts) and its sub-machines (funding.ts, destination.ts). Pure.
import type { CardPayoutQuote } from '../../api/cardPayout'
import type { PayoutQuote } from '../../api/payout'
import type { LimitEntry } from '../../api/reference'
import type { Applicant, Onboarded } from '../../identity/machine'
import type { Priced } from '../../kernel/quote'
import type { ChosenWallet } from '../../kernel/connectWallet'
import type { Problem, SendProblem } from '../../kernel/types'
import type { AmountProblem } from '../../lib/decimal'
import type { LimitCheck } from '../../lib/limits'

/** The buyer the service knows (the identity steps end with them): whose the payout is. */
export type BuyerAccount = Onboarded['account']

/** Where the fiat lands: a bank account (or mobile money, or a wallet) named by a beneficiary, or a card entered on the card provider's page. */
export type Destination = 'bank' | 'card'

/** The price of either: the card's has no rail (the card network) and no settlement label. */
export type AnyPayoutQuote = PayoutQuote | CardPayoutQuote

/** The token the payout is funded with (from the embedding's sources; the service never picks it). */
export type Source = { chainId: number; token: string; symbol: string; decimals: number }

/** What the buyer types: one amount (in the stablecoin, or the fiat that must arrive), where, and how (a card payout has no country nor rail). */
export type PayoutForm = { kind: 'crypto' | 'fiat'; amount: string; currency: string; country: string; rail: string }

/** The quote request as asked: the amount canonical (a dot), the rail only when forced; a card's country is ''. */
export type QuoteAsk = { kind: 'crypto' | 'fiat'; amount: string; currency: string; country: string; rail?: string }

/**
 * The beneficiary schemas offered (partner-api.md: "Beneficiary"; each one's form is
 * beneficiarySchemas.ts): the contract's nine; the field names of bank_uk, bank_br_pix, bank_mexico
 * and momo_africa are assumed-contract.md's.
 */
export const offeredSchemas = ['bank_sepa', 'bank_uk', 'bank_us', 'bank_swift', 'bank_br_pix', 'bank_mexico', 'bank_africa', 'momo_africa', 'evm'] as const
export type OfferedSchemaId = (typeof offeredSchemas)[number]

/** The beneficiary as typed, kept through re-quotes and errors (a typo never clears it). */
export type Draft = { schema?: OfferedSchemaId; values: Record<string, string>; purpose: string }

/** Why the quote is not what the buyer asked (quoteCheck.ts): never shown, nothing created. */
export type AskRule = 'ask.crypto' | 'ask.fiat'

/** What the form says; errors/payoutWords.ts words the payout's own (`ask`). */
export type FormError =
  | { kind: 'amount'; problem: AmountProblem }
  | { kind: 'country' }
  | { kind: 'limits'; check: Extract<LimitCheck, { ok: false }> }
  | { kind: 'ask'; rule: AskRule }
  | { kind: 'api'; problem: Problem }

/** Why the funding transfer was not asked for, or what the wallet answered (errors/words.ts says it). */
export type FundingProblem = SendProblem

/**
 * The wallet the buyer connected to fund the payout: its address, and the wallet itself while this
 * page lives. `byAddress`: no wallet connected; the buyer chose to pay from another wallet or an
 * exchange (the payout is created offered by address).
 */
export type Funder = { sender: string; wallet?: ChosenWallet; byAddress?: true }

/**
 * What the payout carries through the identity steps (a full navigation to the identity provider
 * and back): the ask, the price, the wallet's address, the beneficiary as typed. After
 * requires_action, the same request goes again once the buyer verified further, under the same
 * idempotency key: the key belongs to that request (persisted.ts), never to another.
 */
export type Pending = {
  form: PayoutForm
  limits?: LimitEntry[]
  draft: Draft
  ask: QuoteAsk
  funder?: Funder
  quoted?: Priced<AnyPayoutQuote>
  /** `higher`: the service asked for a higher verification tier (422 requires_action) of this buyer. */
  tier?: 'higher'
  buyer?: BuyerAccount
  /** A card payout: the session of the card page the buyer was sent to (its return names it). */
  cardSession?: string
  /** A card payout: the applicant's details typed before the card page, for a higher tier asked after it. */
  applicant?: Applicant
}

/** How the card page came back: the session it names, what the buyer did there, and when the page read it (the price's expiry is judged at that time). */
export type CardReturn = { session: string; result: 'ok' | 'cancelled'; at: number }

/** Who the buyer is once known; undefined before the identity steps (the price is anonymous). */
export type Base = {
  buyer?: BuyerAccount
  form: PayoutForm
  limits?: LimitEntry[]
  draft: Draft
  funder?: Funder
  applicant?: Applicant
  /** A card payout: the card page's session that came back `ok`, not yet turned into a payout. */
  cardSession?: string
}
export type QuotedBase = Base & { ask: QuoteAsk } & Priced<AnyPayoutQuote>
export type Known = { buyer: BuyerAccount }

/** What the embedding fixed, and how a new form starts (machine.ts's Context adds the destination step). */
export type Settings = {
  source: Source
  decimalMark: '.' | ','
  /** A new form (to start, or to start over). */
  emptyForm: () => PayoutForm
  /** The wallet a signed link names, if any: the only wallet the identity steps may verify. */
  linkWallet?: string
}

export const emptyDraft = (): Draft => ({ values: {}, purpose: '' })

/** What every stage before the payout exists carries on (the price and the stage's own aside). */
export function carried(state: Base): Base {
  const { buyer, form, limits, draft, funder, applicant, cardSession } = state
  return { buyer, form, limits, draft, funder, applicant, cardSession }
}

/** The price a stage holds, carried to the next (its quote, when it was asked, and the ask). */
export const quoted = (state: QuotedBase) => ({ ask: state.ask, quote: state.quote, quotedAt: state.quotedAt })

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
