// The onboarding's requests and answers (schemas.ts says what the split is for).
import * as z from 'zod/mini'
import { decimalString, address } from './schemas-common'

// Fiat onboarding to a virtual account (widget-style path, /fiat/...).

export const fiatOnboardRequest = z.object({
  authCode: z.string(),
  applicantInfo: z.object({ nationality: z.string(), phone: z.string() }),
  individual: z.object({
    name: z.string(),
    email: z.string(),
    country: z.string(),
  }),
  wallet: address,
})
export type FiatOnboardRequest = z.infer<typeof fiatOnboardRequest>

export const fiatOnboard = z.object({
  accountId: z.string().check(z.minLength(1)),
  walletId: z.string().check(z.minLength(1)),
  kycStatus: z.string(),
})

export const feeBps = z.number().check(z.int(), z.gte(0), z.lte(10_000))

/** Every string field of the details is kept: other rails bring other keys. */
export const bankDetails = z.record(z.string(), z.unknown())

export const fiatAccount = z.object({
  id: z.string().check(z.minLength(1)),
  details: bankDetails,
  /** The delivered asset, when the answer names it (the virtual account list shape's field). */
  asset: z.optional(z.string().check(z.minLength(1))),
  /** Basis points: a whole number from 0 (free) to 10000 (everything). */
  applicationFeeBps: feeBps,
})
export type FiatAccount = z.infer<typeof fiatAccount>

export const fiatStatus = z.object({
  status: z.string(),
  deliveredAmount: z.optional(decimalString),
  /** The delivered asset when the answer names it; never assumed (the contract: not USDC by default). */
  asset: z.optional(z.string().check(z.minLength(1))),
  cryptoCurrency: z.optional(z.string().check(z.minLength(1))),
})
