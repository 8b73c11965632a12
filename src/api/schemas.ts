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
    z.object({ origin: z.optional(z.string()), delivered: z.optional(z.string()) }),
  ),
})
export type DepositStatus = z.infer<typeof depositStatus>
