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

export type PartnerClientOptions = {
  /** `partnerBase`: the partner's backend, which holds the API key and forwards to /v1/card/... */
  base: string
  /** Sent as `Authorization: Bearer …`: how the partner's backend knows its own user. */
  token?: string
  /** The partner opted into its cookies (its backend must then allow credentials in CORS). */
  cookies?: boolean
  fetch?: typeof fetch
}

/**
 * The card calls of the partner's backend (`partnerBase`), through its one door (`createPartnerHttp`).
 * It is not the service's widget path, so its calls do not spend the per-IP budget. No cookies by
 * default: a backend answering CORS the usual way (no `Access-Control-Allow-Credentials`) would be
 * refused, and frames and hosted pages lose third-party cookies in Safari and Firefox anyway.
 */
export function createPartnerClient(http: PartnerHttp) {
  return {
    /** Not in the service's contract for the partner's backend: see the README's assumptions. */
    limits: (fiatCurrency: string, cryptoCurrency: string) => http.get('/card/limits', { fiatCurrency, cryptoCurrency }, cardLimits),
    kycToken: (walletAddress: string) => http.post('/card/kyc-token', { walletAddress }, cardKycToken),
    purchase: (request: CardPurchaseRequest) => http.post('/card/purchase', request, cardPurchase),
    status: (id: string) => http.post('/card/status', { id }, cardStatus),
  }
}

export type PartnerClient = ReturnType<typeof createPartnerClient>
