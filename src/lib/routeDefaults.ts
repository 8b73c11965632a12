// Where a flow's first screen starts: a currency and a country that a route serves for this partner,
// never one without (../shared/UX.md: "The first screen offers a route that exists"). One rule for
// the flows that ask for a currency and a country (the bank payout, the one-off bank deposit): the
// partner's registry defaults, then the buyer's own country (their last, or the one they verified
// with), then the browser's region, then the first route the limits allow. Pure.

/** A currency paid to (or from) a country. */
export type Route = { currency: string; country: string }

/** The registry's word for a partner (each optional): its usual currency and country. */
export type RouteDefaults = { currency?: string; country?: string }

/** "de-DE" → "DE"; a language alone names no country. */
export function regionOf(locale: string): string | undefined {
  try {
    return new Intl.Locale(locale).region
  } catch {
    return undefined
  }
}

/** What the buyer brings: the country they gave (their last, or the one they verified with), the locale. */
export type Preference = { country?: string; locale?: string }

/**
 * The first route that exists, in order of preference: the registry's currency and country; the
 * buyer's country, then the browser's region, each in the registry's currency first, then in any;
 * the registry's currency anywhere; then the first route. `routes`: those that exist for this
 * partner, offered currencies only, in the order the limits give them. None: no default (the buyer
 * chooses).
 */
export function defaultRoute(routes: readonly Route[], partner: RouteDefaults = {}, prefer: Preference = {}): Route | undefined {
  const region = prefer.locale ? regionOf(prefer.locale) : undefined
  const currency = partner.currency
  const wanted: RouteDefaults[] = [
    ...(partner.country ? [{ currency, country: partner.country }] : []),
    ...[prefer.country, region].filter((c): c is string => !!c).flatMap((country) => [{ currency, country }, { country }]),
    { currency },
  ]
  for (const want of [...wanted, {}]) {
    const found = routes.find((r) => (!want.currency || r.currency === want.currency) && (!want.country || r.country === want.country.toUpperCase()))
    if (found) return found
  }
  return undefined
}

/**
 * The routes of a method from the service's countries (GET /payment-methods: each country's own
 * currency and whether the method is open there), for the currencies offered whose limits name the
 * direction, ordered as the limits list the currencies. Without limits, the offered order.
 */
export function routesOf(
  countries: Readonly<Record<string, { currency?: string } & Record<string, unknown>>>,
  method: string,
  offered: readonly string[],
  limitCurrencies?: readonly string[],
): Route[] {
  const order = limitCurrencies ? [...new Set(limitCurrencies.map((c) => c.toUpperCase()))].filter((c) => offered.includes(c)) : offered
  return order.flatMap((currency) =>
    Object.entries(countries)
      .filter(([, c]) => c.currency === currency && c[method] === true)
      .map(([country]) => ({ currency, country })),
  )
}
