// The default way the reconciler asks the service: POST to the kind's partner-path status
// endpoint with the API key, put on the request by ../forward.ts as on every request the kit sends.
// The answer is returned as JSON and checked by the reconciler against the contract's schema.
// Errors name the endpoint and the HTTP status only, never the key.
import type { ApiKey } from '../apiKey'
import { sendWithKey } from '../forward'
import type { PaymentKind } from '../store/kinds'
import { statusRequests } from './kinds'

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
