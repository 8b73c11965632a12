// The checks of the one-off deposit's records (persisted.ts fetches them when needed: see storage/storedCheck.ts).
import * as z from 'zod/mini'
import { bankDepositStatuses } from '../../lib/status/bankDeposit'
import { bankDepositDetails } from '../../api/schemas-bankDeposit'
import type { Pending } from './higherTier'
import type { Attempt, KeptDeposit } from './persisted'

const text = z.string().check(z.minLength(1))
const kept = z.object({
  deposit: z.object({
    id: text,
    rail: text,
    expiresAt: text,
    details: bankDepositDetails,
    currency: text,
    amount: text,
    country: z.optional(z.string()),
    wallet: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
    createdAt: z.number(),
  }),
  status: z.object({
    id: text,
    status: z.enum(bankDepositStatuses),
    fiatAmount: z.optional(z.string()),
    cryptoAmount: z.optional(z.string()),
    cryptoCurrency: z.optional(z.string()),
    settlementTxHash: z.optional(z.string()),
    reason: z.optional(z.string()),
  }),
})
const attempt = z.object({
  reference: z.string().check(z.minLength(1), z.maxLength(64)),
  accountId: text,
  currency: text,
  amount: text,
  savedAt: z.number(),
})

const pending = z.object({
  tier: z.literal('higher'),
  buyer: z.object({ accountId: text, walletId: text, wallet: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)) }),
  form: z.object({ country: z.string(), currency: text, amount: z.string() }),
  pinned: z.optional(z.boolean()),
})

const check =
  <T>(schema: z.ZodMiniType) =>
  (value: unknown): T | undefined => {
    const parsed = schema.safeParse(value)
    return parsed.success ? (parsed.data as T) : undefined
  }

export const keptDeposit = check<KeptDeposit>(kept)
export const pendingAttempt = check<Attempt>(attempt)
export const tierPending = check<Pending>(pending)
