import { ApiError, AuthCodeRejected, KycPending } from '../errors/ApiError'
import type { ApiClient } from './client'
import { lazySchemas } from './lazySchemas'
import type { FiatOnboardRequest } from './schemas-onboarding'

/** The bank identity and virtual account calls' answers (loaded after the first screen: see lazySchemas). */
export const onboardingSchemas = lazySchemas(() => import('./schemas-onboarding'))
const fiatOnboard = onboardingSchemas.schema('fiatOnboard')
const fiatAccount = onboardingSchemas.schema('fiatAccount')
const fiatStatus = onboardingSchemas.schema('fiatStatus')

/** Throws AuthCodeRejected on any 400: the contract says a refused code is never sent again. */
export async function onboard(api: ApiClient, request: FiatOnboardRequest) {
  try {
    return await api.post('/fiat/onboard', request, fiatOnboard, 'user')
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) throw new AuthCodeRejected(error.status, error.code, error.serverMessage)
    throw error
  }
}

/** Throws KycPending while the banking partner still checks the identity (a "pending" code). */
export async function openAccount(api: ApiClient, accountId: string, walletId: string, priority: 'user' | 'poll' = 'user') {
  try {
    return await api.post('/fiat/account', { accountId, walletId }, fiatAccount, priority)
  } catch (error) {
    if (error instanceof ApiError && /pending/i.test(error.code)) throw new KycPending(error.status, error.code, error.serverMessage)
    throw error
  }
}

export function fundingStatus(api: ApiClient, accountId: string, virtualAccountId: string) {
  return api.post('/fiat/status', { accountId, virtualAccountId }, fiatStatus, 'poll')
}
