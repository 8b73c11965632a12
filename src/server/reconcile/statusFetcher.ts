// The default way the reconciler asks the service: POST to the kind's partner-path status
// endpoint with the API key. The answer is returned as JSON and checked by the reconciler against
// the contract's schema. The key goes into the Authorization header and into nothing else: errors
// name the endpoint and the HTTP status only.
import { type ApiKey, readApiKey } from '../apiKey'
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
    let key: string
    try {
      key = await readApiKey(apiKey)
    } catch (error) {
      throw new StatusFetchError(`${where}: ${error instanceof Error ? error.message : 'the API key could not be read'}`)
    }
    let res: Response
    let text: string
    try {
      res = await fetchFn(base + path, {
        method,
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        // The key is never sent on to wherever a redirect points.
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      })
      text = await res.text()
    } catch (error) {
      throw new StatusFetchError(`${where}: the service could not be reached (${error instanceof Error ? error.name : 'error'})`)
    }
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
