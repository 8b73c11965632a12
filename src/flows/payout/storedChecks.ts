// The checks of the payout's records (persisted.ts fetches them when needed: see storage/storedCheck.ts).
import * as z from 'zod/mini'
import { cardPayoutQuote } from '../../api/schemas-cardPayout'
import { payoutQuote, payoutStatus } from '../../api/schemas-payout'
import type { Pending } from './base'
import type { PayoutRecord } from './record'
import type { Claim } from './persisted'

const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))

const record = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  depositAddress: address,
  depositAmount: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
  chain: z.number().check(z.int(), z.positive()),
  expiresAt: z.string(),
  token: address,
  symbol: z.string().check(z.minLength(1), z.maxLength(12)),
  decimals: z.number().check(z.int(), z.gte(0), z.lte(36)),
  fiatAmount: z.string(),
  fiatCurrency: z.string(),
  rail: z.optional(z.string()),
  settlement: z.optional(z.string()),
  card: z.optional(z.object({ brand: z.string().check(z.maxLength(32)), last4: z.string().check(z.regex(/^\d{4}$/)) })),
  accountId: z.string().check(z.minLength(1), z.maxLength(128)),
  wallet: address,
  promptedAt: z.optional(z.number()),
  offeredAt: z.optional(z.number()),
  sender: z.optional(address),
  txHash: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/))),
  final: z.optional(payoutStatus),
  createdAt: z.number(),
})

const pending = z.object({ reference: z.string().check(z.minLength(1), z.maxLength(64)), request: z.string(), savedAt: z.number() })

const claims = z.object({ claims: z.array(pending) })

const text = (max: number) => z.string().check(z.maxLength(max))
const form = z.object({ kind: z.enum(['crypto', 'fiat']), amount: text(40), currency: text(3), country: text(2), rail: text(32) })
/** The payout through the identity steps (session only): the ask, the wallet, the beneficiary as typed. */
const payoutPending = z.object({
  form,
  draft: z.object({ schema: z.optional(text(32)), values: z.record(text(64), text(256)), purpose: text(256) }),
  ask: z.object({
    kind: z.enum(['crypto', 'fiat']),
    amount: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
    currency: text(3),
    country: text(2),
    rail: z.optional(text(32)),
  }),
  funder: z.optional(z.object({ sender: address, byAddress: z.optional(z.literal(true)) })),
  quoted: z.optional(z.object({ quote: z.union([payoutQuote, cardPayoutQuote]), quotedAt: z.number() })),
  cardSession: z.optional(text(128)),
  tier: z.optional(z.literal('higher')),
  buyer: z.optional(z.object({ accountId: text(128), walletId: text(128), wallet: address })),
  // As the identity draft holds it (identity/storedChecks.ts): what the details form took.
  applicant: z.optional(z.object({ wallet: z.string(), nationality: z.string(), country: z.string(), phone: z.string(), name: z.string(), email: z.string() })),
})

export function payoutRecord(value: unknown): PayoutRecord | undefined {
  const parsed = record.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

export function claim(value: unknown): Claim | undefined {
  const parsed = pending.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

export function claimList(value: unknown): Claim[] | undefined {
  const parsed = claims.safeParse(value)
  return parsed.success ? parsed.data.claims : undefined
}

export function pendingPayout(value: unknown): Pending | undefined {
  const parsed = payoutPending.safeParse(value)
  return parsed.success ? (parsed.data as Pending) : undefined
}
