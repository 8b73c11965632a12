// The bank payout's answers (payout.ts calls them; loaded after the first screen: see lazySchemas).
import * as z from 'zod/mini'
import { payoutStatuses } from '../lib/status/payout'
import { address, decimalString, hash, isoDate } from './schemas-common'

export const payoutQuote = z.object({
  quoteId: z.string().check(z.minLength(1)),
  /** What the user sends. */
  cryptoAmount: decimalString,
  /** What arrives, after both fees. */
  fiatAmount: decimalString,
  /** Fiat per unit of crypto. */
  rate: decimalString,
  rail: z.string().check(z.minLength(1)),
  /** A coarse label (`instant`, `same_day`, `t+1`, `t+3`): an expectation, not a commitment. */
  estimatedSettlement: z.string().check(z.minLength(1)),
  /** Already deducted from fiatAmount. */
  providerFee: decimalString,
  ourFee: decimalString,
  expiresAt: isoDate,
})
export type PayoutQuote = z.infer<typeof payoutQuote>

export const payout = z.object({
  id: z.string().check(z.minLength(1)),
  /** Single use: never send to it twice. */
  depositAddress: address,
  /** The exact amount to send, in major units of the quoted crypto. */
  depositAmount: decimalString,
  /** Sending on any other chain loses the funds. */
  chain: z.number().check(z.int(), z.positive()),
  // `pending` on creation; a retry with the same reference returns the payout as it is now.
  status: z.enum(payoutStatuses),
  expiresAt: isoDate,
})
export type Payout = z.infer<typeof payout>

export const payoutStatus = z.object({
  id: z.string().check(z.minLength(1)),
  status: z.enum(payoutStatuses),
  fiatAmount: z.optional(decimalString),
  fiatCurrency: z.optional(z.string().check(z.minLength(1))),
  /** The rail actually used. */
  rail: z.optional(z.string()),
  bankReference: z.optional(z.string()),
  depositTxHash: z.optional(hash),
  /** On `rejected` and `returned`. */
  reason: z.optional(z.string()),
  updatedAt: z.optional(isoDate),
})
export type PayoutStatus = z.infer<typeof payoutStatus>
