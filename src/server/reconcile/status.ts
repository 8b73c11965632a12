// How the service is asked about one payment, for each kind the reconciler follows: its
// partner-path status endpoint, the contract's schema of its answer (shared with the widget, src/api),
// the statuses after which nothing moves, and the default fetcher, which POSTs to that endpoint
// with the API key, put on the request by ../forward.ts as on every request the kit sends. The
// answer is returned as JSON and checked by the reconciler against the schema. Errors name the
// endpoint and the HTTP status only, never the key.
import * as z from 'zod/mini'
import { payoutFinal } from '../../api/payout'
import { bankDepositStatus } from '../../api/schemas-bankDeposit'
import { cardStatus } from '../../api/schemas-card'
import { depositStatus, depositStatusRequest } from '../../api/schemas-deposit'
import { payoutStatus } from '../../api/schemas-payout'
import { bankDepositFinal } from '../../lib/status/bankDeposit'
import { cardFinal } from '../../lib/status/card'
import type { ApiKey } from '../apiKey'
import { sendWithKey } from '../forward'
import type { PaymentKind } from '../store/kinds'

export const statusSchemas = {
  card: cardStatus,
  bankDeposit: bankDepositStatus,
  payout: payoutStatus,
  // The card payout's record is the bank payout's without rail and bankReference, both optional there.
  cardPayout: payoutStatus,
  deposit: depositStatus,
} satisfies Record<PaymentKind, z.ZodMiniType<{ status: string }>>

export type StatusRecord<K extends PaymentKind = PaymentKind> = z.infer<(typeof statusSchemas)[K]>

/**
 * A bank deposit's `expired` is not final (money sent before expiresAt still arrives), nor is an
 * unknown card state: those stay followed, less and less often while nothing changes.
 */
export const finalStatuses: Record<PaymentKind, readonly string[]> = {
  card: cardFinal,
  bankDeposit: bankDepositFinal,
  payout: payoutFinal,
  cardPayout: payoutFinal,
  deposit: ['done', 'failed', 'expired'],
}

/** The partner-path endpoint (under apiBase) and the body that asks it about one payment. */
export const statusRequests: Record<PaymentKind, { path: string; body(id: string, details: unknown): unknown }> = {
  card: { path: '/v1/card/status', body: (id) => ({ id }) },
  bankDeposit: { path: '/v1/bank/deposit/status', body: (id) => ({ id }) },
  payout: { path: '/v1/bank/payout/status', body: (id) => ({ id }) },
  cardPayout: { path: '/v1/card/payout/status', body: (id) => ({ id }) },
  // Known by provider and receipt, both recorded as the payment's details.
  deposit: { path: '/v1/deposit/status', body: (_id, details) => depositStatusRequest.parse(details) },
}

/** Asks the service about one payment; resolves to the JSON it answered, or throws. */
export type FetchStatus = (kind: PaymentKind, id: string, details: unknown) => Promise<unknown>

export class StatusFetchError extends Error {
  override name = 'StatusFetchError'
  constructor(
    message: string,
    readonly httpStatus?: number,
    /** From the service's Retry-After on 429 or 503: no request should start before then. */
    readonly retryAfterMs?: number,
  ) {
    super(message)
  }
}

export type StatusFetcherOptions = {
  /** The service, e.g. `https://api.example.com` (as for createPartnerHandler). */
  apiBase: string
  /** The key, or a function read before every request (a rotated key is used without a restart). */
  apiKey: ApiKey
  fetch?: typeof fetch
  timeoutMs?: number
}

export type StatusFetcher = FetchStatus & {
  /** GET /v1/limits: the rails' limits and settlement times, as JSON (the reconciler checks it). */
  limits(): Promise<unknown>
}

export function createStatusFetcher({ apiBase, apiKey, fetch: fetchFn = (i, o) => fetch(i, o), timeoutMs = 15_000 }: StatusFetcherOptions): StatusFetcher {
  const base = apiBase.replace(/\/+$/, '')
  const ask = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const where = `${method} ${path}`
    const sent = await sendWithKey({ apiKey, fetch: fetchFn, timeoutMs }, method, base + path, body)
    if (!sent.ok && sent.stage === 'key') {
      throw new StatusFetchError(`${where}: ${sent.error instanceof Error ? sent.error.message : 'the API key could not be read'}`)
    }
    if (!sent.ok) {
      throw new StatusFetchError(`${where}: the service could not be reached (${sent.error instanceof Error ? sent.error.name : 'error'})`)
    }
    const { res, text } = sent
    if (!res.ok) {
      const seconds = Number(res.headers.get('Retry-After'))
      const retryAfterMs = res.status === 429 ? (Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 600) * 1000 : 1000) : undefined
      throw new StatusFetchError(`${where}: the service answered ${res.status}`, res.status, retryAfterMs)
    }
    try {
      return JSON.parse(text)
    } catch {
      throw new StatusFetchError(`${where}: the answer is not JSON`, res.status)
    }
  }
  const fetchStatus: FetchStatus = async (kind, id, details) => {
    const { path, body } = statusRequests[kind]
    return ask('POST', path, body(id, details))
  }
  return Object.assign(fetchStatus, { limits: () => ask('GET', '/v1/limits') })
}
