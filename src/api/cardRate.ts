// The live card rate (GET {partnerBase}/card/rate, forwarded to /v1/card/rate): an indicative price
// while the buyer types, never reserved. Its own module (re-exported by reference.ts), so the card
// flow loads only it.
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { CardRate } from './schemas-cardRate'

export type { CardRate } from './schemas-cardRate'

/** The answer's schema (loaded after the first screen: see lazySchemas). */
export const cardRateSchemas = lazySchemas(() => import('./schemas-cardRate'))
const cardRate = cardRateSchemas.schema('cardRate')

export type CardRateRequest = { fiatCurrency: string; cryptoCurrency: string; amount: string; side?: 'buy' | 'sell' }

export function getCardRate(http: PartnerHttp, request: CardRateRequest, signal?: AbortSignal): Promise<CardRate> {
  const { fiatCurrency, cryptoCurrency, amount, side } = request
  return http.get('/card/rate', { fiatCurrency, cryptoCurrency, amount, side }, cardRate, signal)
}
