// The partner path's status reads, typed and checked against the contract's schemas: what a
// server confirms a payment with (credit on the service's word, never on the browser's).
import * as z from 'zod/mini'
import type { ApiKey } from './apiKey'
import { parseJson, sendWithKey } from './forward'
import { createStatusFetcher, StatusFetchError, statusSchemas, type StatusRecord } from './reconcile/status'
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
  /**
   * GET /v1/virtual-accounts, one page (newest first; `hasMore`: ask again with `startingAfter` the
   * last id). The service answers 501 not_implemented today: that throws VirtualAccountsNotListed.
   */
  virtualAccounts(filter?: VirtualAccountsFilter): Promise<VirtualAccountsPage>
}

export type VirtualAccountsFilter = { currency?: string; rail?: string; active?: boolean; limit?: number; startingAfter?: string }

// The contract's list shape (partner-api.md, "Virtual account (list shape)").
const virtualAccount = z.object({
  id: z.string(),
  wallet: z.string(),
  chain: z.string(),
  asset: z.string(),
  rail: z.string(),
  currency: z.string(),
  reference: z.string(),
  details: z.record(z.string(), z.unknown()),
  feeBps: z.number(),
  active: z.boolean(),
  createdAt: z.string(),
})
const virtualAccountsPage = z.object({ accounts: z.array(virtualAccount), hasMore: z.boolean() })
export type VirtualAccountsPage = z.infer<typeof virtualAccountsPage>

/**
 * The service does not list virtual accounts yet (its 501 not_implemented, which the contract states
 * for GET /v1/virtual-accounts): said in the kit's own code, apart from a failure of the service.
 * The details returned when an account was opened are the ones to keep.
 */
export class VirtualAccountsNotListed extends StatusFetchError {
  override name = 'VirtualAccountsNotListed'
  readonly code = 'virtual_accounts_not_listed'
  constructor() {
    super('GET /v1/virtual-accounts: the service does not list virtual accounts yet (501 not_implemented); keep the details returned at creation', 501)
  }
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
    virtualAccounts: (filter = {}) => listVirtualAccounts(options, filter),
  }
}

async function listVirtualAccounts(options: PartnerReadsOptions, filter: VirtualAccountsFilter): Promise<VirtualAccountsPage> {
  const where = 'GET /v1/virtual-accounts'
  const url = new URL(`${options.apiBase.replace(/\/+$/, '')}/v1/virtual-accounts`)
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) url.searchParams.set(name, String(value))
  const service = { apiKey: options.apiKey, fetch: options.fetch ?? ((i, o) => fetch(i, o)), timeoutMs: options.timeoutMs ?? 15_000 }
  const sent = await sendWithKey(service, 'GET', url, undefined)
  if (!sent.ok) throw new StatusFetchError(`${where}: ${sent.stage === 'key' ? 'the API key could not be read' : 'the service could not be reached'}`)
  const answer = parseJson(sent.text)
  if (sent.res.status === 501 && (answer as { error?: { code?: unknown } } | undefined)?.error?.code === 'not_implemented') throw new VirtualAccountsNotListed()
  if (!sent.res.ok) throw new StatusFetchError(`${where}: the service answered ${sent.res.status}`, sent.res.status)
  const parsed = virtualAccountsPage.safeParse(answer)
  if (!parsed.success) throw new StatusFetchError(`${where}: the answer does not match the contract (${parsed.error.issues[0]?.message})`, sent.res.status)
  return parsed.data
}
