// Card payout (permission `card-payouts`; creation as assumed-contract.md fixes it): the card that
// receives the money is entered on the provider's hosted page, opened by a session of the user's.
import * as z from 'zod/mini'
import { httpUrl, id, oneAmount, payoutQuote, reference, text } from './fields'
import { creates, quotedAmount, quotes, reads } from './route'
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

export const cardPayoutRoutes: readonly Route[] = [
  post('/card/payout/quote', z.strictObject(payoutQuote).check(oneAmount), quotes),
  post('/card/payout/card-session', z.strictObject({ returnUrl: httpUrl }), withReturnUrl(opensCardSession)),
  post(
    '/card/payout',
    z.strictObject({ quoteId: text(128), accountId: text(128), cardSession: text(128), reference: z.optional(reference) }),
    creates('cardPayout', {
      // A card page session another user opened (or none the kit opened) is not this user's to
      // pay out to: refused as their payments are, before the account is bound.
      check: async ({ call, data, user, payments }) => ((await payments.cardSessionHolder(data.cardSession as string)) !== user ? call.notFound() : undefined),
      amount: quotedAmount('cardPayout'),
      scopesReference: true,
    }),
  ),
  post('/card/payout/status', id, reads('cardPayout')),
]
