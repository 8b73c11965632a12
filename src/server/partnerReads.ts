// The partner path's status reads, typed and checked against the contract's schemas: what a
// server confirms a payment with (credit on the service's word, never on the browser's).
import type { ApiKey } from './apiKey'
import { statusSchemas, type StatusRecord } from './reconcile/status'
import { createStatusFetcher, StatusFetchError } from './reconcile/status'
import type { DepositReceipt } from './depositReceipt'
import type { PaymentKind } from './store/kinds'

export type PartnerReadsOptions = { apiBase: string; apiKey: ApiKey; fetch?: typeof fetch; timeoutMs?: number }

export type PartnerReads = {
  cardPurchase(id: string): Promise<StatusRecord<'card'>>
  bankDeposit(id: string): Promise<StatusRecord<'bankDeposit'>>
  payout(id: string): Promise<StatusRecord<'payout'>>
  cardPayout(id: string): Promise<StatusRecord<'cardPayout'>>
  /** By the provider and the receipt as read from the chain (the store keeps them as the deposit's details). */
  deposit(request: { provider: string; receipt: DepositReceipt }): Promise<StatusRecord<'deposit'>>
}

/** Each read throws StatusFetchError when the service fails or answers outside the contract. */
export function createPartnerReads(options: PartnerReadsOptions): PartnerReads {
  const fetchStatus = createStatusFetcher(options)
  const read = async <K extends PaymentKind>(kind: K, id: string, details?: unknown): Promise<StatusRecord<K>> => {
    const answer = await fetchStatus(kind, id, details)
    const parsed = statusSchemas[kind].safeParse(answer)
    if (!parsed.success) throw new StatusFetchError(`${kind} ${id}: the answer does not match the contract (${parsed.error.issues[0]?.message})`, 200)
    return parsed.data as StatusRecord<K>
  }
  return {
    cardPurchase: (id) => read('card', id),
    bankDeposit: (id) => read('bankDeposit', id),
    payout: (id) => read('payout', id),
    cardPayout: (id) => read('cardPayout', id),
    deposit: (request) => read('deposit', request.receipt.txHash, request),
  }
}
