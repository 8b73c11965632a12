import type { ApiClient } from './client'
import { lazySchemas } from './lazySchemas'
import type { DepositQuoteRequest, DepositStatusRequest } from './schemas-deposit'

/** The deposit calls' answers (loaded after the first screen: see lazySchemas). */
export const depositSchemas = lazySchemas(() => import('./schemas-deposit'))
const depositQuote = depositSchemas.schema('depositQuote')
const depositStatus = depositSchemas.schema('depositStatus')

export function quoteDeposit(api: ApiClient, request: DepositQuoteRequest) {
  return api.post('/deposit/quote', request, depositQuote, 'user')
}

export function getDepositStatus(api: ApiClient, request: DepositStatusRequest, priority: 'user' | 'poll' = 'poll') {
  return api.post('/deposit/status', request, depositStatus, priority)
}
