import type * as z from 'zod/mini'
import { PartnerUnreachableError } from '../errors/ApiError'
import { type ApiClient, type ResponseSchema, readResponse } from './client'
import { lazySchemas } from './lazySchemas'
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
 * The partner's backend (`partnerBase`). It is not the service's widget path, so its calls do not
 * spend the per-IP budget. No cookies by default: a backend answering CORS the usual way (no
 * `Access-Control-Allow-Credentials`) would be refused, and frames and hosted pages lose
 * third-party cookies in Safari and Firefox anyway.
 */
export function createPartnerClient({ base: partnerBase, token, cookies = false, fetch: fetchFn = fetch }: PartnerClientOptions) {
  const base = partnerBase.replace(/\/+$/, '')
  const auth: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {}
  async function call<S extends z.ZodMiniType>(path: string, init: RequestInit, schema: ResponseSchema<S>): Promise<z.infer<S>> {
    let res: Response
    try {
      res = await fetchFn(base + path, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) }, credentials: cookies ? 'include' : 'omit' })
    } catch (cause) {
      // Offline, DNS, or a CORS refusal: the browser does not say which.
      throw new PartnerUnreachableError(cause)
    }
    return readResponse(path, res, schema)
  }
  const post = <S extends z.ZodMiniType>(path: string, body: unknown, schema: ResponseSchema<S>) =>
    call(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, schema)
  return {
    /** Not in the service's contract for the partner's backend: see the README's assumptions. */
    limits: (fiatCurrency: string, cryptoCurrency: string) =>
      call(`/card/limits?${new URLSearchParams({ fiatCurrency, cryptoCurrency })}`, { method: 'GET' }, cardLimits),
    kycToken: (walletAddress: string) => post('/card/kyc-token', { walletAddress }, cardKycToken),
    purchase: (request: CardPurchaseRequest) => post('/card/purchase', request, cardPurchase),
    status: (id: string) => post('/card/status', { id }, cardStatus),
  }
}

export type PartnerClient = ReturnType<typeof createPartnerClient>
