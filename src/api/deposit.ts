import type { ApiClient } from './client'
import {
  type DepositQuoteRequest,
  type DepositStatusRequest,
  depositQuote,
  depositStatus,
} from './schemas'

export function quoteDeposit(api: ApiClient, request: DepositQuoteRequest) {
  return api.post('/deposit/quote', request, depositQuote, 'user')
}

export function getDepositStatus(api: ApiClient, request: DepositStatusRequest, priority: 'user' | 'poll' = 'poll') {
  return api.post('/deposit/status', request, depositStatus, priority)
}
