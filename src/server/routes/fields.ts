// The fields the contract's requests are made of (../shared/spec/partner-api.md and
// assumed-contract.md), and how a refused one is named.
import * as z from 'zod/mini'

export const text = (max: number) => z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`))
export const decimal = z.string().check(z.regex(/^\d{1,18}(\.\d{1,18})?$/, 'must be a decimal string like "25.50"'))
export const currency = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like "EUR"'))
export const country = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code like "DE"'))
export const asset = z.string().check(z.regex(/^[A-Za-z0-9.]{1,16}$/, 'must be an asset symbol like "USDC"'))
export const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex digits'))
export const reference = z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters'))
export const httpUrl = z.string().check(
  z.maxLength(8192, 'must be at most 8192 characters'),
  z.refine((value) => {
    try {
      const { protocol, username, password } = new URL(value)
      return (protocol === 'https:' || protocol === 'http:') && !username && !password
    } catch {
      return false
    }
  }, 'must be an http or https URL without a user name or password'),
)
export const id = z.strictObject({ id: text(128) })
export const chain = z.int().check(z.positive('must be a chain id'))
// A payout's quote (bank or card): the source, the currency paid out, and exactly one amount.
export const payoutQuote = { cryptoCurrency: asset, chain, fiatCurrency: currency, cryptoAmount: z.optional(decimal), fiatAmount: z.optional(decimal) }
export const oneAmount = z.refine<{ cryptoAmount?: string; fiatAmount?: string }>(
  (quote) => (quote.cryptoAmount === undefined) !== (quote.fiatAmount === undefined),
  {
    message: 'send cryptoAmount or fiatAmount, exactly one of the two',
    path: ['cryptoAmount'],
  },
)

export const txHash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash: 0x and 64 hex digits'))

/** The first problem of a refused request, naming the field. */
export function describeIssue(error: z.core.$ZodError, input: unknown): string {
  const issue = error.issues[0]
  if (!issue) return 'request: invalid'
  const at = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    return `${[...at, issue.keys[0]].join('.')}: not a field of this request`
  }
  const field = at.length ? at.join('.') : 'body'
  const given = at.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], input)
  if (issue.code === 'invalid_type' && given === undefined) return `${field}: required`
  if (issue.code === 'invalid_type') return `${field}: must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`
  return `${field}: ${issue.message}`
}
