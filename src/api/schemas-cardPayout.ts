// The card payout's answers (cardPayout.ts calls them; loaded after the first screen: see lazySchemas).
// The quote and the status record as partner-api.md documents them; the card page session and the
// created payout as assumed-contract.md fixes them ("Card payout: creation").
import * as z from 'zod/mini'
import { payoutStatuses } from '../lib/status/payout'
import { address, decimalString, hash, isoDate } from './schemas-common'

const nonEmpty = z.string().check(z.minLength(1))

export const cardPayoutQuote = z.object({
  quoteId: nonEmpty,
  /** What the user sends. */
  cryptoAmount: decimalString,
  /** What lands on the card, after both fees. */
  fiatAmount: decimalString,
  /** Fiat per unit of crypto. */
  rate: decimalString,
  /** Already deducted from fiatAmount. */
  providerFee: decimalString,
  ourFee: decimalString,
  expiresAt: isoDate,
})
export type CardPayoutQuote = z.infer<typeof cardPayoutQuote>

/**
 * The provider's hosted card page. Kept as sent: the flow follows `url` only once validateRedirect
 * (lib/redirect.ts) finds its host on the registry's cardHosts, as it does the card purchase's.
 */
export const cardSession = z.object({ id: nonEmpty, url: nonEmpty })
export type CardSession = z.infer<typeof cardSession>

export const cardPayout = z.object({
  id: nonEmpty,
  /** Single use: never send to it twice. */
  depositAddress: address,
  /** The exact amount to send, in major units of the quoted crypto. */
  depositAmount: decimalString,
  /** Sending on any other chain loses the funds. */
  chain: z.number().check(z.int(), z.positive()),
  // `pending` on creation; a retry with the same reference returns the payout as it is now.
  status: z.enum(payoutStatuses),
  expiresAt: isoDate,
  /** The card the money lands on, as the buyer will recognise it: shown, so printable and short. */
  card: z.object({
    brand: z.string().check(z.regex(/^[\x21-\x7e][\x20-\x7e]{0,31}$/, 'must be a card brand')),
    last4: z.string().check(z.regex(/^[0-9]{4}$/, 'must be the last 4 digits')),
  }),
})
export type CardPayout = z.infer<typeof cardPayout>

export const cardPayoutStatusRecord = z.object({
  id: nonEmpty,
  status: z.enum(payoutStatuses),
  /** What actually landed, once known: lower than quoted when the user underfunded. */
  fiatAmount: z.optional(decimalString),
  fiatCurrency: nonEmpty,
  depositTxHash: z.optional(hash),
  /** On `rejected` and `returned`. */
  reason: z.optional(z.string()),
  updatedAt: isoDate,
})
export type CardPayoutStatusRecord = z.infer<typeof cardPayoutStatusRecord>
