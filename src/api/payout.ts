// Bank payout (partner-api.md: "Bank payout"), through the partner's backend:
// POST {partnerBase}/bank/payout/quote, /bank/payout and /bank/payout/status.
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { Payout, PayoutQuote, PayoutStatus } from './schemas-payout'

export type { Payout, PayoutQuote, PayoutStatus } from './schemas-payout'

export { payoutFinal, payoutStatuses, type PayoutStatusName } from '../lib/status/payout'

/** The answers' schemas (loaded after the first screen: see lazySchemas). */
export const payoutSchemas = lazySchemas(() => import('./schemas-payout'))
const payoutQuote = payoutSchemas.schema('payoutQuote')
const payout = payoutSchemas.schema('payout')
const payoutStatus = payoutSchemas.schema('payoutStatus')

type QuoteBase = {
  cryptoCurrency: string
  /** Source chain id. */
  chain: number
  fiatCurrency: string
  /** ISO 3166-1 alpha-2 of the destination bank. */
  country: string
  /** Forces a rail; omitted, the cheapest rail serving the pair is chosen. */
  rail?: string
}
/** One amount, never both: what the user sends, or what must arrive. */
export type PayoutQuoteRequest = QuoteBase & ({ cryptoAmount: string; fiatAmount?: never } | { fiatAmount: string; cryptoAmount?: never })

export function quotePayout(http: PartnerHttp, request: PayoutQuoteRequest, signal?: AbortSignal): Promise<PayoutQuote> {
  const { cryptoCurrency, chain, fiatCurrency, country, rail } = request
  const amount = request.cryptoAmount !== undefined ? { cryptoAmount: request.cryptoAmount } : { fiatAmount: request.fiatAmount }
  return http.post('/bank/payout/quote', { cryptoCurrency, chain, fiatCurrency, country, ...amount, ...(rail ? { rail } : {}) }, payoutQuote, signal)
}

/** The beneficiary as sent (partner-api.md: "Beneficiary"): `name`, `schema`, and that schema's own fields, one level of nesting (beneficiaryAddress). */
export type Beneficiary = { name: string; schema: string } & Record<string, string | Record<string, string>>

export type PayoutRequest = {
  /** An expired quote is refused (409 quote_expired): quote again, never resend it. */
  quoteId: string
  /** The paying user, not the beneficiary. */
  accountId: string
  /** From the form's checks (flows/payout/beneficiary.ts, buildBeneficiary): only the fields its schema defines. */
  beneficiary: Beneficiary
  purpose?: string
  /** The idempotency key (at most 64 characters): without it a retry is a second payout. */
  reference?: string
}

export function createPayout(http: PartnerHttp, request: PayoutRequest, signal?: AbortSignal): Promise<Payout> {
  const { quoteId, accountId, beneficiary, purpose, reference } = request
  return http.post(
    '/bank/payout',
    { quoteId, accountId, beneficiary, ...(purpose ? { purpose } : {}), ...(reference !== undefined ? { reference } : {}) },
    payout,
    signal,
  )
}

export function getPayoutStatus(http: PartnerHttp, id: string, signal?: AbortSignal): Promise<PayoutStatus> {
  return http.post('/bank/payout/status', { id }, payoutStatus, signal)
}
