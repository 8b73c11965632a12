import { describe, expect, it } from 'vitest'
import { defaultRoute, routesOf } from '../../../src/lib/routeDefaults'

// Issue 39, item 3: the first screen starts on a route that exists for this partner.
const countries = {
  AT: { currency: 'EUR', bank_payout: true },
  DE: { currency: 'EUR', bank_payout: true },
  GB: { currency: 'GBP', bank_payout: true },
  US: { currency: 'USD', bank_payout: true, bank_deposit: false },
  NG: { currency: 'NGN', bank_payout: false },
}
const routes = routesOf(countries, 'bank_payout', ['EUR', 'USD', 'GBP'], ['EUR', 'EUR', 'GBP', 'USD'])

describe('where the first screen starts', () => {
  it('routes: the offered currencies the limits name, in the limits’ order, to the countries open for the method', () => {
    expect(routes).toEqual([
      { currency: 'EUR', country: 'AT' },
      { currency: 'EUR', country: 'DE' },
      { currency: 'GBP', country: 'GB' },
      { currency: 'USD', country: 'US' },
    ])
    expect(routesOf(countries, 'bank_payout', ['EUR'], ['GBP'])).toEqual([])
    expect(routesOf(countries, 'bank_payout', ['NGN'])).toEqual([])
  })
  it('the registry’s currency and country first, where a route serves them', () => {
    expect(defaultRoute(routes, { currency: 'EUR', country: 'DE' }, { locale: 'en-US' })).toEqual({ currency: 'EUR', country: 'DE' })
  })
  it('a registry country no route serves is never the default: its currency with the browser’s region, then the region in any currency', () => {
    expect(defaultRoute(routes, { currency: 'EUR', country: 'US' }, { locale: 'de-DE' })).toEqual({ currency: 'EUR', country: 'DE' })
    expect(defaultRoute(routes, { currency: 'EUR', country: 'US' }, { locale: 'en-US' })).toEqual({ currency: 'USD', country: 'US' })
  })
  it('without registry defaults: the browser’s region; a region without a route, or a language alone, gives the first route', () => {
    expect(defaultRoute(routes, {}, { locale: 'en-US' })).toEqual({ currency: 'USD', country: 'US' })
    expect(defaultRoute(routes, {}, { locale: 'ja-JP' })).toEqual({ currency: 'EUR', country: 'AT' })
    expect(defaultRoute(routes, {}, { locale: 'en' })).toEqual({ currency: 'EUR', country: 'AT' })
    expect(defaultRoute(routes, { currency: 'GBP' }, { locale: 'ja-JP' })).toEqual({ currency: 'GBP', country: 'GB' })
  })
  it('the buyer’s own country (their last, or the one they verified with) after the registry’s defaults, before the browser’s region', () => {
    expect(defaultRoute(routes, { currency: 'EUR', country: 'DE' }, { country: 'GB', locale: 'en-US' })).toEqual({ currency: 'EUR', country: 'DE' })
    expect(defaultRoute(routes, {}, { country: 'GB', locale: 'en-US' })).toEqual({ currency: 'GBP', country: 'GB' })
    // A country the buyer gave with no route is passed over, never the default.
    expect(defaultRoute(routes, {}, { country: 'NG', locale: 'de-DE' })).toEqual({ currency: 'EUR', country: 'DE' })
  })
  it('a registry currency without a country still lets the buyer’s country or region choose within it', () => {
    expect(defaultRoute(routes, { currency: 'EUR' }, { locale: 'de-DE' })).toEqual({ currency: 'EUR', country: 'DE' })
    expect(defaultRoute(routes, { currency: 'EUR' }, { country: 'GB' })).toEqual({ currency: 'GBP', country: 'GB' })
  })
  it('no route at all: no default (the buyer chooses)', () => {
    expect(defaultRoute([], { currency: 'EUR', country: 'DE' }, { locale: 'de-DE' })).toBeUndefined()
  })
})
