import type * as z from 'zod/mini'
import { NetworkError } from '../errors/ApiError'
import { type ApiClient, readResponse } from './client'
import {
  type CardPurchaseRequest,
  type CardQuoteRequest,
  cardKycToken,
  cardLimits,
  cardPurchase,
  cardQuote,
  cardStatus,
} from './schemas'

/** The widget path: POST /card/quote, through the shared limiter. */
export function quoteCard(api: ApiClient, request: CardQuoteRequest) {
  return api.post('/card/quote', request, cardQuote, 'user')
}

/**
 * The partner's backend (`partnerBase`): it holds the API key and forwards to /v1/card/...
 * It is not the service's widget path, so its calls do not spend the per-IP budget.
 */
export function createPartnerClient(partnerBase: string, fetchFn: typeof fetch = fetch) {
  const base = partnerBase.replace(/\/+$/, '')
  async function call<S extends z.ZodMiniType>(path: string, init: RequestInit, schema: S): Promise<z.infer<S>> {
    let res: Response
    try {
      res = await fetchFn(base + path, { ...init, credentials: 'include' })
    } catch (cause) {
      throw new NetworkError(cause)
    }
    return readResponse(path, res, schema)
  }
  const post = <S extends z.ZodMiniType>(path: string, body: unknown, schema: S) =>
    call(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }, schema)
  return {
    limits: (fiatCurrency: string, cryptoCurrency: string) =>
      call(`/card/limits?${new URLSearchParams({ fiatCurrency, cryptoCurrency })}`, { method: 'GET' }, cardLimits),
    kycToken: (walletAddress: string) => post('/card/kyc-token', { walletAddress }, cardKycToken),
    purchase: (request: CardPurchaseRequest) => post('/card/purchase', request, cardPurchase),
    status: (id: string) => post('/card/status', { id }, cardStatus),
  }
}

export type PartnerClient = ReturnType<typeof createPartnerClient>
