// Bank payout (permission `bank-payouts`): a quote, the payout of that quote to a beneficiary
// from the user's own account, and its status.
import * as z from 'zod/mini'
import { country, id, oneAmount, payoutQuote, reference, text } from './fields'
import { type Route, creates, post, quotedAmount, quotes, reads } from './route'

// The beneficiary's fields beyond `name` and `schema` depend on its schema, and the contract names
// them only for some schemas; the service refuses any the schema does not define. So only their
// form is checked here: strings, and one level of strings for an address object.
const beneficiary = z.catchall(
  z.object({ name: text(256), schema: z.string().check(z.regex(/^[a-z_]{2,32}$/, 'must be a beneficiary schema like "bank_sepa"')) }),
  z.union([text(256), z.record(z.string(), z.string().check(z.maxLength(256)))], 'must be a string or an object of strings'),
)

export const payoutRoutes: readonly Route[] = [
  post(
    '/bank/payout/quote',
    z
      .strictObject({
        ...payoutQuote,
        country,
        rail: z.optional(z.string().check(z.regex(/^[a-z0-9_]{1,32}$/, 'must be a rail like "sepa_instant"'))),
      })
      .check(oneAmount),
    quotes,
  ),
  post(
    '/bank/payout',
    z.strictObject({
      quoteId: text(128),
      accountId: text(128),
      beneficiary,
      purpose: z.optional(text(512)),
      reference: z.optional(reference),
    }),
    creates('payout', { amount: quotedAmount('payout'), scopesReference: true }),
  ),
  post('/bank/payout/status', id, reads('payout')),
]
