// The check of the bank flow's record (persisted.ts fetches it when needed: see storage/storedCheck.ts).
import * as z from 'zod/mini'
import { feeBps } from '../../api/schemas-onboarding'
import type { StoredAccount } from './machine'

const schema = z.object({
  accountId: z.string().check(z.minLength(1)),
  walletId: z.optional(z.string().check(z.minLength(1))),
  virtualAccountId: z.optional(z.string().check(z.minLength(1))),
  details: z.optional(z.record(z.string(), z.string())),
  feeBps: z.optional(feeBps),
  asset: z.optional(z.string()),
  savedAt: z.optional(z.number().check(z.nonnegative())),
})

export function record(value: unknown): (StoredAccount & { savedAt?: number }) | undefined {
  const parsed = schema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}
