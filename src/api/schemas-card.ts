// The card payment's requests and answers (schemas.ts says what the split is for).
import * as z from 'zod/mini'
import { decimalString, address, isoDate } from './schemas-common'

// Card payment: POST /card/quote on the widget path; the rest through the partner's backend.

export const cardQuoteRequest = z.object({ fiatCurrency: z.string().check(z.regex(/^[A-Z]{3}$/)), fiatAmount: decimalString })
export type CardQuoteRequest = z.infer<typeof cardQuoteRequest>

export const cardQuote = z.object({
  cryptoAmount: decimalString,
  cryptoCurrency: z.string().check(z.minLength(1)),
  fiatAmount: decimalString,
  rate: decimalString,
  providerFee: decimalString,
  ourFee: decimalString,
  total: decimalString,
  expiresAt: z.optional(isoDate),
  environment: z.optional(z.string()),
})
export type CardQuote = z.infer<typeof cardQuote>

/** GET {partnerBase}/card/limits: the widget's own assumption (README, "Assumptions"). */
export const cardLimits = z.object({
  fiatCurrency: z.string(),
  cryptoCurrency: z.string(),
  min: decimalString,
  max: decimalString,
  environment: z.optional(z.string()),
})
export type CardLimits = z.infer<typeof cardLimits>

export const cardKycToken = z.object({ token: z.string().check(z.minLength(1)), environment: z.string() })

export const cardPurchaseRequest = z.object({
  kycToken: z.string(),
  fiatCurrency: z.string(),
  fiatAmount: decimalString,
  walletAddress: address,
  returnUrl: z.string(),
})
export type CardPurchaseRequest = z.infer<typeof cardPurchaseRequest>

export const cardPurchase = z.object({
  id: z.string().check(z.minLength(1)),
  redirectUrl: z.string(),
  environment: z.string(),
})

export const cardStatus = z.object({
  id: z.string(),
  status: z.string().check(z.minLength(1)),
  environment: z.string(),
  cryptoAmount: z.optional(decimalString),
  cryptoCurrency: z.optional(z.string()),
  txHash: z.optional(z.string()),
  reason: z.optional(z.string()),
})
export type CardStatus = z.infer<typeof cardStatus>
