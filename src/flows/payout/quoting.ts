// The form's rails and limits, and the price for what the buyer asked: held to that ask before the
// machine ever sees it.
import { getLimits, getPaymentMethods } from '../../api/reference'
import { defaultRoute, routesOf } from '../../lib/routeDefaults'
import { describeError } from '../../errors/describeError'
import { staleness } from '../../kernel/quote'
import type { PayoutContext, StateOf } from './context'
import { checkQuote } from './quoteCheck'

/**
 * The limits, and (a bank payout) where the form starts: a route that exists for this partner
 * (lib/routeDefaults.ts), from the countries the service pays out to.
 */
export async function loadLimits(ctx: PayoutContext, alive: () => boolean) {
  const { routes, config } = ctx
  try {
    const [limits, methods] = await Promise.all([getLimits(ctx.partner), routes ? getPaymentMethods(ctx.partner).catch(() => undefined) : undefined])
    const payout = limits.filter((l) => l.direction === 'payout' || l.direction === 'both').map((l) => l.currency)
    const route =
      routes && methods && defaultRoute(routesOf(methods.countries, routes.method, routes.currencies, payout), config.defaults, { locale: config.locale })
    if (alive()) ctx.dispatch({ type: 'LIMITS', limits, ...(route ? { route } : {}) })
  } catch {
    // A courtesy check before quoting: the service still enforces its own limits.
  }
}

export async function requestQuote(ctx: PayoutContext, state: StateOf<'quoting'>, alive: () => boolean, signal: AbortSignal) {
  const { ask } = state
  const { source, dispatch } = ctx
  try {
    const quote = await ctx.calls.quote(ctx, ask, signal)
    if (!alive()) return
    // Exactly what the buyer asked to send, or at least what they asked to arrive: else never shown, nothing created.
    const asked = checkQuote(ask, quote, source.decimals)
    if (!asked.ok) return dispatch({ type: 'QUOTE_REJECTED', rule: asked.rule })
    const at = ctx.clock.now()
    dispatch({ type: 'QUOTED', quote, at, stale: staleness(quote.expiresAt, at) === 'expired' ? 'expired' : undefined })
  } catch (error) {
    if (alive()) dispatch({ type: 'QUOTE_FAILED', problem: describeError(error) })
  }
}
