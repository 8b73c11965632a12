import type { ApiClient } from './client'
import { type FiatOnboardRequest, fiatAccount, fiatOnboard, fiatStatus } from './schemas'

export function onboard(api: ApiClient, request: FiatOnboardRequest) {
  return api.post('/fiat/onboard', request, fiatOnboard, 'user')
}

export function openAccount(api: ApiClient, accountId: string, walletId: string, priority: 'user' | 'poll' = 'user') {
  return api.post('/fiat/account', { accountId, walletId }, fiatAccount, priority)
}

export function fundingStatus(api: ApiClient, accountId: string, virtualAccountId: string) {
  return api.post('/fiat/status', { accountId, virtualAccountId }, fiatStatus, 'poll')
}
