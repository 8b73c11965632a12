// The contract's building blocks and its error envelope (schemas.ts says what the split is for).
import * as z from 'zod/mini'

export const decimalString = z.string().check(z.regex(/^\d+(?:\.\d+)?$/, 'must be a decimal string'))
export const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address'))
export const hash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash'))
export const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'must be hex data'))
export const isoDate = z.string().check(z.refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date'))

export const errorEnvelope = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
})
