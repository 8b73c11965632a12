// Which country the one-off deposit's form opens on: only one with a route for this embedding. Pure.
import type { LimitEntry, PaymentMethods } from '../../api/reference'
import { limitsFor } from '../../lib/limits'
import { offersBankDeposit } from '../../lib/status/bankDeposit'

type Reference = { methods: PaymentMethods; limits: LimitEntry[] }

/** A route: the service offers the one-off deposit there, in a currency this embedding takes, which the limits name for paying in. */
export function hasRoute(data: Reference, country: string, currencies: readonly string[]): boolean {
  const currency = data.methods.countries[country]?.currency
  if (!currency || !currencies.includes(currency) || !offersBankDeposit(data.methods, country)) return false
  return data.limits.length === 0 || limitsFor(data.limits, { currency, direction: 'pay_in' }).length > 0
}

/**
 * The country given (the buyer's last, the one they verified with, or the browser's region) where it
 * has a route; else the first the service lists with a route in the partner's first currency, then in
 * its others; else none ("Choose…"). A country without a route is never the default.
 */
export function routeCountry(data: Reference, given: string, currencies: readonly string[]): string {
  if (given && hasRoute(data, given, currencies)) return given
  const countries = Object.keys(data.methods.countries)
  for (const currency of currencies) {
    const found = countries.find((c) => data.methods.countries[c]?.currency === currency && hasRoute(data, c, currencies))
    if (found) return found
  }
  return ''
}
