// Verifying is a full navigation to the identity provider and back. What the buyer typed (the
// wallet first, and after a refusal their details and what the bank said) waits in this tab's
// sessionStorage meanwhile, and is taken (read once, then removed) on the way back. A link's
// walletAddress is honoured only under the partner's signature, so the widget never writes one.
import * as z from 'zod/mini'
import type { Applicant, ServerMessage } from './machine'

const KEY = 'stablecoin-widget:v1:identity-draft'

const field = z.enum(['wallet', 'nationality', 'country', 'phone', 'name', 'email', 'category'])
const draft = z.object({
  form: z.object({
    wallet: z.string(),
    nationality: z.string(),
    country: z.string(),
    phone: z.string(),
    name: z.string(),
    email: z.string(),
    category: z.string(),
  }),
  serverMessage: z.optional(
    z.object({
      field: z.optional(field),
      problem: z.object({ key: z.string(), code: z.optional(z.string()), detail: z.optional(z.string()) }),
    }),
  ),
})

export type IdentityDraft = { form: Applicant; serverMessage?: ServerMessage }

export function identityDraft(storage: Storage | undefined) {
  return {
    put(value: IdentityDraft) {
      try {
        storage?.setItem(KEY, JSON.stringify(value))
      } catch {
        // without storage the buyer types the details again after verifying
      }
    },
    take(): IdentityDraft | undefined {
      try {
        const raw = storage?.getItem(KEY)
        storage?.removeItem(KEY)
        const parsed = raw ? draft.safeParse(JSON.parse(raw)) : undefined
        return parsed?.success ? (parsed.data as IdentityDraft) : undefined
      } catch {
        return undefined
      }
    },
  }
}
