// The live card rate (GET {partnerBase}/card/rate, forwarded to /v1/card/rate): an indicative price
// while the buyer types, never reserved. Its own module (re-exported by reference.ts), so the card
// flow loads only it.
import * as z from 'zod/mini'
import type { PartnerHttp } from './partnerHttp'
import { decimalString } from './schemas'

export const cardRate = z.object({
  side: z.enum(['buy', 'sell']),
  fiatCurrency: z.string(),
  cryptoCurrency: z.string().check(z.minLength(1)),
  /** Fees included. */
  fiatAmount: decimalString,
  cryptoAmount: decimalString,
  rate: decimalString,
})
/** A live rate, a display aid only: nothing is reserved. */
export type CardRate = z.infer<typeof cardRate>

export type CardRateRequest = { fiatCurrency: string; cryptoCurrency: string; amount: string; side?: 'buy' | 'sell' }

export function getCardRate(http: PartnerHttp, request: CardRateRequest, signal?: AbortSignal): Promise<CardRate> {
  const { fiatCurrency, cryptoCurrency, amount, side } = request
  return http.get('/card/rate', { fiatCurrency, cryptoCurrency, amount, side }, cardRate, signal)
}
