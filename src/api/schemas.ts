// The contract, once: partner-api.md plus assumed-contract.md where the former says "not shown".
// Objects are non-strict: unknown fields are dropped, a missing field we rely on fails the parse.
import * as z from 'zod/mini'

export const decimalString = z.string().check(z.regex(/^\d+(?:\.\d+)?$/, 'must be a decimal string'))
export const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address'))
export const hash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash'))
export const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'must be hex data'))
export const isoDate = z.string().check(
  z.refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date'),
)

export const errorEnvelope = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
})

// Crypto deposit

export const depositEndpoint = z.object({
  chainId: z.number().check(z.int()),
  token: address,
  address,
})

export const depositQuoteRequest = z.object({
  source: depositEndpoint,
  destination: z.optional(depositEndpoint),
  amount: decimalString,
  method: z.literal('crypto'),
})
export type DepositQuoteRequest = z.infer<typeof depositQuoteRequest>

export const depositQuote = z.object({
  provider: z.string().check(z.minLength(1)),
  amountIn: decimalString,
  amountOut: decimalString,
  fee: decimalString,
  expiresAt: isoDate,
  approval: z.optional(
    z.object({ token: address, spender: address, amount: z.string().check(z.regex(/^\d+$/)) }),
  ),
  transaction: z.object({
    chainId: z.number().check(z.int()),
    to: address,
    data: hex,
    value: z.string().check(z.regex(/^\d+$/, 'must be an integer string')),
  }),
})
export type DepositQuote = z.infer<typeof depositQuote>

export const depositStatusRequest = z.object({
  provider: z.string(),
  receipt: z.object({
    txHash: hash,
    logs: z.array(z.object({ address, topics: z.array(hex) })),
  }),
})
export type DepositStatusRequest = z.infer<typeof depositStatusRequest>

export const depositStatuses = ['pending', 'done', 'failed', 'expired'] as const
export const depositStatus = z.object({
  status: z.enum(depositStatuses),
  txHashes: z.optional(
    // They become explorer links: a transaction hash and nothing else.
    z.object({ origin: z.optional(hash), delivered: z.optional(hash) }),
  ),
})
export type DepositStatus = z.infer<typeof depositStatus>

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

export const cardTerminal = ['completed', 'failed', 'cancelled', 'expired'] as const
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

// Fiat onboarding to a virtual account (widget-style path, /fiat/...).

export const fiatOnboardRequest = z.object({
  authCode: z.string(),
  applicantInfo: z.object({ nationality: z.string(), phone: z.string() }),
  individual: z.object({
    name: z.string(),
    email: z.string(),
    country: z.string(),
    category: z.optional(z.string()),
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
