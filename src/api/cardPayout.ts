// Card payout (partner-api.md: "Card payout"; creation as assumed-contract.md fixes it), through the
// partner's backend: POST {partnerBase}/card/payout/quote, /card/payout/card-session, /card/payout
// and /card/payout/status. The card is entered on the provider's hosted page, never here.
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { CardPayout, CardPayoutQuote, CardPayoutStatusRecord, CardSession } from './schemas-cardPayout'

export type { CardPayout, CardPayoutQuote, CardPayoutStatusRecord, CardSession } from './schemas-cardPayout'

/** The answers' schemas (loaded after the first screen: see lazySchemas). */
export const cardPayoutSchemas = lazySchemas(() => import('./schemas-cardPayout'))
const quoteSchema = cardPayoutSchemas.schema('cardPayoutQuote')
const sessionSchema = cardPayoutSchemas.schema('cardSession')
const payoutSchema = cardPayoutSchemas.schema('cardPayout')
const statusSchema = cardPayoutSchemas.schema('cardPayoutStatusRecord')

type QuoteBase = {
  cryptoCurrency: string
  /** Source chain id. */
  chain: number
  /** EUR, GBP or USD; any other is refused (422 no_route). */
  fiatCurrency: string
}
/** One amount, never both: what the user sends, or what must land on the card. */
export type CardPayoutQuoteRequest = QuoteBase & ({ cryptoAmount: string; fiatAmount?: never } | { fiatAmount: string; cryptoAmount?: never })

export function quoteCardPayout(http: PartnerHttp, request: CardPayoutQuoteRequest, signal?: AbortSignal): Promise<CardPayoutQuote> {
  const { cryptoCurrency, chain, fiatCurrency } = request
  const amount = request.cryptoAmount !== undefined ? { cryptoAmount: request.cryptoAmount } : { fiatAmount: request.fiatAmount }
  return http.post('/card/payout/quote', { cryptoCurrency, chain, fiatCurrency, ...amount }, quoteSchema, signal)
}

/** Opens the hosted card page; it returns to `returnUrl` with `cardSession=<id>&result=ok` (or `cancelled`). */
export function cardPayoutSession(http: PartnerHttp, { returnUrl }: { returnUrl: string }, signal?: AbortSignal): Promise<CardSession> {
  return http.post('/card/payout/card-session', { returnUrl }, sessionSchema, signal)
}

export type CardPayoutRequest = {
  /** An expired quote is refused (409 quote_expired): quote again, never resend it. */
  quoteId: string
  /** The paying user. */
  accountId: string
  /** The session whose page returned `result=ok`: one session, one payout. */
  cardSession: string
  /** The idempotency key (at most 64 characters): without it a retry is a second payout. */
  reference?: string
}

export function createCardPayout(http: PartnerHttp, request: CardPayoutRequest, signal?: AbortSignal): Promise<CardPayout> {
  const { quoteId, accountId, cardSession, reference } = request
  return http.post('/card/payout', { quoteId, accountId, cardSession, ...(reference !== undefined ? { reference } : {}) }, payoutSchema, signal)
}

export function cardPayoutStatus(http: PartnerHttp, id: string, signal?: AbortSignal): Promise<CardPayoutStatusRecord> {
  return http.post('/card/payout/status', { id }, statusSchema, signal)
}
