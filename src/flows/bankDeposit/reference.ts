// What the service says about paying here (GET /payment-methods and /limits), for the form.
import { getLimits, getPaymentMethods } from '../../api/reference'
import { describeError } from '../../errors/describeError'
import { type Route, type RouteDefaults, defaultRoute, routesOf } from '../../lib/routeDefaults'
import type { BankDepositContext } from './context'
import type { FormState, ReferenceData } from './state'

/**
 * Where the form starts, by the one rule of lib/routeDefaults.ts: the routes are the countries that
 * offer the one-off deposit, in the currencies taken (`currencies`: only the pinned one for a pinned
 * retry) that the limits name for paying in; `given` is the buyer's own country (last, or verified).
 */
export function startRoute(data: ReferenceData, currencies: readonly string[], given: string, defaults?: RouteDefaults, locale?: string): Route | undefined {
  const payIn = data.limits.length ? data.limits.filter((l) => l.direction === 'pay_in' || l.direction === 'both').map((l) => l.currency) : undefined
  return defaultRoute(routesOf(data.methods.countries, 'bank_deposit', currencies, payIn), defaults, { country: given, locale })
}

export async function loadReference(ctx: BankDepositContext, state: FormState, alive: () => boolean, signal: AbortSignal) {
  try {
    const [methods, limits] = await Promise.all([
      getPaymentMethods(ctx.http, signal),
      // Limits are a courtesy check before the request; without them the service still has the last word.
      getLimits(ctx.http, undefined, signal).catch(() => []),
    ])
    const data = { methods, limits }
    const route = startRoute(data, state.pinned ? [state.form.currency] : ctx.currencies, state.form.country, ctx.defaults, ctx.locale)
    if (alive()) ctx.dispatch({ type: 'REFERENCE', data, route: route ?? null })
  } catch (error) {
    if (alive()) ctx.dispatch({ type: 'REFERENCE_FAILED', problem: describeError(error) })
  }
}
