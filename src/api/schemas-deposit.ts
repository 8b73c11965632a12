// The crypto deposit's requests and answers (schemas.ts says what the split is for).
import * as z from 'zod/mini'
import { decimalString, address, hash, hex, isoDate } from './schemas-common'

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
/** The kit's by-address request (POST {partnerBase}/deposit/address): the sender may be left out, the kit names it. */
export type DepositAddressRequest = Omit<DepositQuoteRequest, 'source'> & { source: Omit<DepositQuoteRequest['source'], 'address'> & { address?: string } }

export const depositQuote = z.object({
  provider: z.string().check(z.minLength(1)),
  amountIn: decimalString,
  amountOut: decimalString,
  fee: decimalString,
  expiresAt: isoDate,
  approval: z.optional(z.object({ token: address, spender: address, amount: z.string().check(z.regex(/^\d+$/)) })),
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

/**
 * The partner kit's answer to POST {partnerBase}/deposit/sent (README "Partner-backend kit"; not the
 * service's contract): its own id for the deposit, which its `/deposit/status` takes.
 */
export const depositSent = z.object({ id: z.string().check(z.minLength(1), z.maxLength(256)) })

/**
 * The kit's answer to POST {partnerBase}/deposit/wallet: the wallet is linked to this user already,
 * or the EIP-4361 message to sign with it (checked in flows/deposit/linkWallet.ts before any prompt).
 */
export const walletChallenge = z.union([
  z.object({ linked: z.literal(true) }),
  z.object({ linked: z.literal(false), message: z.string().check(z.minLength(1), z.maxLength(2048)) }),
])

/** The kit's answer to POST {partnerBase}/deposit/wallet/link once the signature is checked. */
export const walletLinked = z.object({ linked: z.literal(true) })
