// One-off bank deposit (partner-api.md: "One-off bank deposit"), through the partner's backend:
// POST {partnerBase}/bank/deposit and /bank/deposit/status, forwarded to /v1/... with the key.
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { BankDeposit, BankDepositStatus } from './schemas-bankDeposit'

export type { BankDeposit, BankDepositDetails, BankDepositStatus } from './schemas-bankDeposit'

/** The answers' schemas (loaded after the first screen: see lazySchemas). */
export const bankDepositSchemas = lazySchemas(() => import('./schemas-bankDeposit'))
const bankDeposit = bankDepositSchemas.schema('bankDeposit')
const bankDepositStatus = bankDepositSchemas.schema('bankDepositStatus')

export type BankDepositRequest = {
  accountId: string
  walletId: string
  fiatCurrency: string
  /** A decimal string: the details are issued for exactly this amount. */
  fiatAmount: string
  /** The idempotency key (at most 64 characters): a retry with it returns the same deposit. */
  reference?: string
}

export function createBankDeposit(http: PartnerHttp, request: BankDepositRequest, signal?: AbortSignal): Promise<BankDeposit> {
  const { accountId, walletId, fiatCurrency, fiatAmount, reference } = request
  const body = reference === undefined ? { accountId, walletId, fiatCurrency, fiatAmount } : { accountId, walletId, fiatCurrency, fiatAmount, reference }
  return http.post('/bank/deposit', body, bankDeposit, signal)
}

export function getBankDepositStatus(http: PartnerHttp, id: string, signal?: AbortSignal): Promise<BankDepositStatus> {
  return http.post('/bank/deposit/status', { id }, bankDepositStatus, signal)
}
