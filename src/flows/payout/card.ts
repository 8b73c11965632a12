// The card payout's calls to the service (through the partner's backend): its quote (EUR, GBP or
// USD; any other is 422 no_route), the card page (its session, then the page, a full navigation,
// only on a host the registry names in cardHosts), the creation with the session that came back
// `ok`, and its status. Loaded with the card payout only.
import { cardPayoutSession, cardPayoutStatus, createCardPayout, quoteCardPayout } from '../../api/cardPayout'
import { describeError } from '../../errors/describeError'
import { cardPayoutRedirectProblem } from '../../errors/cardPayoutProblems'
import { validateRedirect } from '../../lib/redirect'
import type { PayoutCalls } from './context'
import { created, failed, referenceFor } from './creating'

export const cardCalls: PayoutCalls = {
  quote(ctx, ask, signal) {
    const amount = ask.kind === 'crypto' ? { cryptoAmount: ask.amount } : { fiatAmount: ask.amount }
    return quoteCardPayout(ctx.partner, { cryptoCurrency: ctx.source.symbol, chain: ctx.source.chainId, fiatCurrency: ask.currency, ...amount }, signal)
  },
  status: (ctx, id) => cardPayoutStatus(ctx.partner, id),

  async openCard(ctx, state, alive) {
    const { destination: dispatch } = ctx
    try {
      if (!ctx.returnUrl || !ctx.navigate) throw new Error('no way to the card page')
      const session = await cardPayoutSession(ctx.partner, { returnUrl: ctx.returnUrl() })
      if (!alive()) return
      const checked = validateRedirect(session.url, ctx.config.cardHosts, ctx.config.sandbox)
      if (!checked.ok) return dispatch({ type: 'CARD_FAILED', problem: cardPayoutRedirectProblem(checked.problem) })
      // Kept in this tab before leaving: the way back names this session, and only this one is used.
      const { form, draft, ask, funder, quote, quotedAt, buyer, applicant } = state
      ctx.pending.put({ form, draft, ask, funder, quoted: { quote, quotedAt }, buyer, cardSession: session.id, applicant })
      ctx.navigate(checked.url)
    } catch (error) {
      if (alive()) dispatch({ type: 'CARD_FAILED', problem: describeError(error) })
    }
  },

  async create(ctx, state, alive) {
    if (state.tag !== 'card' || !state.cardSession) return
    const cardSession = state.cardSession
    // One session is one card: a different session is a different request (its own reference).
    const request = { quoteId: state.quote.quoteId, accountId: state.buyer.accountId, beneficiary: { cardSession } }
    const reference = await referenceFor(ctx, state, request, alive)
    if (reference === undefined) return
    try {
      const payout = await createCardPayout(ctx.partner, { quoteId: request.quoteId, accountId: request.accountId, cardSession, reference })
      created(ctx, state, payout, alive, { card: payout.card })
    } catch (error) {
      failed(ctx, error, alive)
    }
  },
}
