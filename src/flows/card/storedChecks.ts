// The check of the card purchase kept across a reload (persisted.ts fetches it when needed: see storage/storedCheck.ts).
import * as z from 'zod/mini'
import type { Purchase } from './machine'

const schema = z.object({
  id: z.string().check(z.minLength(1)),
  environment: z.string(),
  currency: z.string(),
  total: z.string(),
  cryptoAmount: z.string(),
  cryptoCurrency: z.string(),
  createdAt: z.number(),
  redirectUrl: z.optional(z.string()),
})

export function purchase(value: unknown): Purchase | undefined {
  const parsed = schema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}
