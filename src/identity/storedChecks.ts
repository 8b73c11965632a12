// The checks of the buyer's account and of the identity draft (account.ts and draft.ts fetch them
// when needed: see storage/storedCheck.ts).
import * as z from 'zod/mini'
import type { IdentityDraft } from './draft'

const stored = z.object({
  accountId: z.string().check(z.minLength(1), z.maxLength(128)),
  walletId: z.string().check(z.minLength(1), z.maxLength(128)),
  wallet: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
  savedAt: z.number().check(z.nonnegative()),
})

const field = z.enum(['wallet', 'nationality', 'country', 'phone', 'name', 'email'])
const draft = z.object({
  form: z.object({
    wallet: z.string(),
    nationality: z.string(),
    country: z.string(),
    phone: z.string(),
    name: z.string(),
    email: z.string(),
  }),
  serverMessage: z.optional(
    z.object({
      field: z.optional(field),
      problem: z.object({ key: z.string(), code: z.optional(z.string()), detail: z.optional(z.string()) }),
    }),
  ),
})

export function account(value: unknown): z.infer<typeof stored> | undefined {
  const parsed = stored.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

export function identityDraft(value: unknown): IdentityDraft | undefined {
  const parsed = draft.safeParse(value)
  return parsed.success ? (parsed.data as IdentityDraft) : undefined
}
