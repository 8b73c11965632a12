// Reference data through the partner's backend: GET {partnerBase}/limits, /card/rate and
// /payment-methods (the last one's shape is our assumption: see the README).
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { LimitEntry, PaymentMethods } from './schemas-reference'

export type { LimitEntry, PaymentMethods } from './schemas-reference'
export { type CardRate, type CardRateRequest, cardRateSchemas, getCardRate } from './cardRate'

/** The answers' schemas (loaded after the first screen: see lazySchemas). */
export const referenceSchemas = lazySchemas(() => import('./schemas-reference'))
const limits = referenceSchemas.schema('limits')
const paymentMethods = referenceSchemas.schema('paymentMethods')

/** Every limit entry, or those of one currency. */
export function getLimits(http: PartnerHttp, currency?: string, signal?: AbortSignal): Promise<LimitEntry[]> {
  return http.get('/limits', { currency }, limits, signal).then((answer) => answer.limits)
}

export function getPaymentMethods(http: PartnerHttp, signal?: AbortSignal): Promise<PaymentMethods> {
  return http.get('/payment-methods', {}, paymentMethods, signal)
}
