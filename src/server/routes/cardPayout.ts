// Card payout (permission `card-payouts`; creation as assumed-contract.md fixes it): the card that
// receives the money is entered on the provider's hosted page, opened by a session of the user's.
import * as z from 'zod/mini'
import { asset, chain, currency, decimal, httpUrl, id, oneAmount, payoutQuote, reference, text } from './fields'
import { type CreateRules, creates, quotedAmount, quotes, reads } from './route'
import { withReturnUrl } from './returnUrl'
import { type Handle, type Route, post, userOf } from './route'

/**
 * Opens the hosted card page a payout is then created with: the session is recorded as the user's
 * (a creation naming it must be theirs).
 */
const opensCardSession: Handle = async (call, data) => {
  const user = userOf(call)
  const payments = await call.kit.store()
  const where = `${call.route.method} ${call.route.upstream}`
  return call.forward(call.route, data, async (answer) => {
    const { id } = answer as { id?: unknown }
    if (typeof id !== 'string' || id === '') {
      call.kit.log(`${where}: the service answered without an id; nothing was recorded`)
      return call.fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
    }
    if (await payments.bindCardSession(user, id)) return undefined
    call.kit.log(`${where}: the service answered card session ${id}, which another user holds; not handed over`)
    return call.notFound()
  })
}

// "A payout created without quoteId is repriced at execution" (partner-api.md): without a quote, the
// creation names what a quote would (docs/assumptions.md), and nothing of a quote's with one.
const PRICED = ['cryptoCurrency', 'chain', 'fiatCurrency', 'cryptoAmount', 'fiatAmount'] as const
type Creation = { quoteId?: string } & Partial<Record<(typeof PRICED)[number], unknown>>
const creation = z
  .strictObject({
    quoteId: z.optional(text(128)),
    accountId: text(128),
    cardSession: text(128),
    reference: z.optional(reference),
    cryptoCurrency: z.optional(asset),
    chain: z.optional(chain),
    fiatCurrency: z.optional(currency),
    cryptoAmount: z.optional(decimal),
    fiatAmount: z.optional(decimal),
  })
  .check(
    ...PRICED.map((field) =>
      z.refine<Creation>((d) => d.quoteId === undefined || d[field] === undefined, { message: 'not with a quoteId (the quote names it)', path: [field] }),
    ),
    z.refine<Creation>(
      (d) =>
        d.quoteId !== undefined ||
        (d.cryptoCurrency !== undefined && d.chain !== undefined && d.fiatCurrency !== undefined && (d.cryptoAmount ?? d.fiatAmount) !== undefined),
      { message: 'required, or without a quote cryptoCurrency, chain, fiatCurrency and one amount', path: ['quoteId'] },
    ),
    z.refine<Creation>((d) => d.quoteId !== undefined || oneAmountOf(d), {
      message: 'send cryptoAmount or fiatAmount, exactly one of the two',
      path: ['cryptoAmount'],
    }),
  )
const oneAmountOf = (d: Creation) => (d.cryptoAmount === undefined) !== (d.fiatAmount === undefined)

/**
 * The amount the user's limits count: the quote's, or without one the fiat amount it names. A crypto
 * amount has no fiat figure before it is priced: under a ceiling in that currency it is refused.
 */
const creationAmount: CreateRules['amount'] = async (owned) => {
  const { call, data } = owned
  if (data.quoteId !== undefined) return quotedAmount('cardPayout')(owned)
  const fiatCurrency = data.fiatCurrency as string
  if (typeof data.fiatAmount === 'string') return { amount: data.fiatAmount, currency: fiatCurrency }
  if (call.kit.config.userLimits.cardPayout?.maxAmount?.[fiatCurrency])
    return call.fail(400, 'invalid_field', `fiatAmount: required under this user's limit in ${fiatCurrency} (or a quoteId)`)
  return undefined
}

export const cardPayoutRoutes: readonly Route[] = [
  post('/card/payout/quote', z.strictObject(payoutQuote).check(oneAmount), quotes),
  post('/card/payout/card-session', z.strictObject({ returnUrl: httpUrl }), withReturnUrl(opensCardSession)),
  post(
    '/card/payout',
    creation,
    creates('cardPayout', {
      // A card page session another user opened (or none the kit opened) is not this user's to
      // pay out to: refused as their payments are, before the account is bound.
      check: async ({ call, data, user, payments }) => ((await payments.cardSessionHolder(data.cardSession as string)) !== user ? call.notFound() : undefined),
      amount: creationAmount,
      scopesReference: true,
    }),
  ),
  post('/card/payout/status', id, reads('cardPayout')),
]
