// Bank payout (partner-api.md: "Bank payout"), through the partner's backend:
// POST {partnerBase}/bank/payout/quote, /bank/payout and /bank/payout/status.
import * as z from 'zod/mini'
import type { Beneficiary } from '../lib/beneficiary'
import type { PartnerHttp } from './partnerHttp'
import { address, decimalString, hash, isoDate } from './schemas'

export const payoutStatuses = ['pending', 'converting', 'sent', 'settled', 'rejected', 'returned'] as const
export type PayoutStatusName = (typeof payoutStatuses)[number]

/**
 * Polling stops on these. Only `settled` is success; `sent` is not arrival. `returned` is money
 * coming back (as stablecoin to the sending wallet, minus the rail's cost), not money lost.
 */
export const payoutFinal: readonly PayoutStatusName[] = ['settled', 'rejected', 'returned']

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

type QuoteBase = {
  cryptoCurrency: string
  /** Source chain id. */
  chain: number
  fiatCurrency: string
  /** ISO 3166-1 alpha-2 of the destination bank. */
  country: string
  /** Forces a rail; omitted, the cheapest rail serving the pair is chosen. */
  rail?: string
}
/** One amount, never both: what the user sends, or what must arrive. */
export type PayoutQuoteRequest = QuoteBase & ({ cryptoAmount: string; fiatAmount?: never } | { fiatAmount: string; cryptoAmount?: never })

export function quotePayout(http: PartnerHttp, request: PayoutQuoteRequest, signal?: AbortSignal): Promise<PayoutQuote> {
  const { cryptoCurrency, chain, fiatCurrency, country, rail } = request
  const amount = request.cryptoAmount !== undefined ? { cryptoAmount: request.cryptoAmount } : { fiatAmount: request.fiatAmount }
  return http.post('/bank/payout/quote', { cryptoCurrency, chain, fiatCurrency, country, ...amount, ...(rail ? { rail } : {}) }, payoutQuote, signal)
}

export type PayoutRequest = {
  /** An expired quote is refused (409 quote_expired): quote again, never resend it. */
  quoteId: string
  /** The paying user, not the beneficiary. */
  accountId: string
  /** From `buildBeneficiary`: only the fields its schema defines. */
  beneficiary: Beneficiary
  purpose?: string
  /** The idempotency key (at most 64 characters): without it a retry is a second payout. */
  reference?: string
}

export function createPayout(http: PartnerHttp, request: PayoutRequest, signal?: AbortSignal): Promise<Payout> {
  const { quoteId, accountId, beneficiary, purpose, reference } = request
  return http.post(
    '/bank/payout',
    { quoteId, accountId, beneficiary, ...(purpose ? { purpose } : {}), ...(reference !== undefined ? { reference } : {}) },
    payout,
    signal,
  )
}

export function getPayoutStatus(http: PartnerHttp, id: string, signal?: AbortSignal): Promise<PayoutStatus> {
  return http.post('/bank/payout/status', { id }, payoutStatus, signal)
}
