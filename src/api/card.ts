import type { ApiClient } from './client'
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { CardPurchaseRequest, CardQuoteRequest } from './schemas-card'

/** The card calls' answers (loaded after the first screen: see lazySchemas). */
export const cardSchemas = lazySchemas(() => import('./schemas-card'))
const cardQuote = cardSchemas.schema('cardQuote')
const cardLimits = cardSchemas.schema('cardLimits')
const cardKycToken = cardSchemas.schema('cardKycToken')
const cardPurchase = cardSchemas.schema('cardPurchase')
const cardStatus = cardSchemas.schema('cardStatus')

/** The widget path: POST /card/quote, through the shared limiter. */
export function quoteCard(api: ApiClient, request: CardQuoteRequest) {
  return api.post('/card/quote', request, cardQuote, 'user')
}

/**
 * The card's calls on the partner's backend, each through its one door (`createPartnerHttp` in
 * partnerHttp.ts: token, cookies, errors), as the bank flows' calls are: not a client of their own.
 */
export function cardCalls(http: PartnerHttp) {
  return {
    /** Not in the service's contract for the partner's backend: see the README's assumptions. */
    limits: (fiatCurrency: string, cryptoCurrency: string) => http.get('/card/limits', { fiatCurrency, cryptoCurrency }, cardLimits),
    kycToken: (walletAddress: string) => http.post('/card/kyc-token', { walletAddress }, cardKycToken),
    purchase: (request: CardPurchaseRequest) => http.post('/card/purchase', request, cardPurchase),
    status: (id: string) => http.post('/card/status', { id }, cardStatus),
  }
}

export type CardCalls = ReturnType<typeof cardCalls>
