// One-off bank deposit (partner-api.md: "One-off bank deposit"), through the partner's backend:
// POST {partnerBase}/bank/deposit and /bank/deposit/status, forwarded to /v1/... with the key.
import { lazySchemas } from './lazySchemas'
import type { PartnerHttp } from './partnerHttp'
import type { BankDeposit, BankDepositDetails, BankDepositStatus } from './schemas-bankDeposit'

export type { BankDeposit, BankDepositDetails, BankDepositStatus } from './schemas-bankDeposit'

/**
 * The details' shape follows the rail, and the contract names no keys but the reference: these
 * are the ones we label (IBAN and BIC for SEPA, account and sort code for UK rails, CLABE for SPEI,
 * a key or a QR payload for PIX). Every other field is kept, and every string one is shown.
 */
export const knownDetailKeys = [
  'reference',
  // In the order a banking app asks for them: the payee, then where the account is.
  'accountName',
  'iban',
  'bic',
  'swiftCode',
  'sortCode',
  'accountNumber',
  'routingNumber',
  'clabe',
  'pixKey',
  'pixPayload',
  'bankName',
] as const
export type KnownDetailKey = (typeof knownDetailKeys)[number]

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

/** Every non-empty string field of the details but the reference: the known ones in `knownDetailKeys` order, then the rest as sent. */
export function detailRows(details: BankDepositDetails): Array<[string, string]> {
  const rank = (key: string) => {
    const i = (knownDetailKeys as readonly string[]).indexOf(key)
    return i < 0 ? knownDetailKeys.length : i
  }
  return Object.entries(details)
    .filter((entry): entry is [string, string] => entry[0] !== 'reference' && typeof entry[1] === 'string' && entry[1] !== '')
    .sort((a, b) => rank(a[0]) - rank(b[0]))
}
