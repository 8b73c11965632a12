import type * as z from 'zod/mini'
import { ApiError, FieldRejected, NetworkError, NoRoute, QuoteExpired, RateLimitedError, ResponseShapeError } from '../errors/ApiError'
import type { Priority, RateLimiter } from '../rateLimit/rateLimiter'
import { lazySchemas } from './lazySchemas'

/** The error envelope's schema (with zod), fetched with the first answer that is an error, or preloaded. */
export const errorSchemas = lazySchemas(() => import('./schemas-common'))
const errorEnvelope = errorSchemas.schema('errorEnvelope')

/**
 * A response schema, or a function that loads it: zod and the contract's schemas can then come
 * with the first request instead of with the first screen. Every answer is parsed either way.
 */
export type ResponseSchema<S extends z.ZodMiniType> = S | (() => Promise<S>)

export type ApiClientOptions = {
  apiBase: string
  limiter: RateLimiter
  fetch?: typeof fetch
  timeoutMs?: number
  /** Aborted when the widget is unmounted: nothing queued is sent afterwards. */
  signal?: AbortSignal
}

export type ApiClient = {
  post<S extends z.ZodMiniType>(path: string, body: unknown, response: ResponseSchema<S>, priority?: Priority): Promise<z.infer<S>>
}

/** Every widget-path call goes through here, and so through the one rate limiter. */
export function createApiClient({ apiBase, limiter, fetch: fetchFn = fetch, timeoutMs = 15_000, signal }: ApiClientOptions): ApiClient {
  const base = apiBase.replace(/\/+$/, '')
  return {
    post(path, body, response, priority = 'user') {
      return limiter.schedule(async () => {
        if (signal?.aborted) throw new NetworkError(signal.reason)
        const controller = new AbortController()
        const abort = () => controller.abort()
        const timer = setTimeout(abort, timeoutMs)
        // Removed again when the answer is read: the widget's signal lives as long as the widget.
        signal?.addEventListener('abort', abort, { once: true })
        try {
          let res: Response
          try {
            res = await fetchFn(base + path, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify(body),
              signal: controller.signal,
              credentials: 'omit',
            })
          } catch (cause) {
            throw new NetworkError(cause)
          }
          return await readResponse(path, res, response)
        } finally {
          clearTimeout(timer)
          signal?.removeEventListener('abort', abort)
        }
      }, priority)
    },
  }
}

/** The body parsed with the contract's schema, or the error envelope as a typed error. */
export async function readResponse<S extends z.ZodMiniType>(path: string, res: Response, response: ResponseSchema<S>): Promise<z.infer<S>> {
  const json = await res.json().catch(() => undefined)
  if (!res.ok) throw await errorFrom(res, json)
  const schema = await schemaOf(response)
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ResponseShapeError(path, issue?.path.join('.') ?? '', issue ? issueText(issue, json) : 'invalid')
  }
  return parsed.data
}

/** What is wrong with a field, in words: "required", "expected a number, got a string", or the check's own message. */
export function issueText(issue: { code: string; path: PropertyKey[]; message: string; expected?: string }, input: unknown): string {
  if (issue.code !== 'invalid_type') return issue.message
  let value: unknown = input
  for (const key of issue.path) value = value === null || typeof value !== 'object' ? undefined : (value as Record<PropertyKey, unknown>)[key]
  if (value === undefined) return 'required'
  return `expected ${article(issue.expected ?? 'value')}, got ${article(value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)}`
}

function article(type: string): string {
  return type === 'null' || type === 'undefined' ? type : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
}

/** A schema is an object; a loader is a function. A loader that cannot fetch its module (offline) is a network error. */
async function schemaOf<S extends z.ZodMiniType>(response: ResponseSchema<S>): Promise<S> {
  if (typeof response !== 'function') return response
  try {
    return await response()
  } catch (cause) {
    throw new NetworkError(cause)
  }
}

const RATE_CODES = new Set(['rate_limited', 'user_rate_limited'])

async function errorFrom(res: Response, json: unknown): Promise<ApiError> {
  const envelope = (await schemaOf(errorEnvelope)).safeParse(json)
  const message = envelope.success ? envelope.data.error.message : ''
  // The service's rate, and the partner kit's per-user rate (user_rate_limited): waited out. A 429 of
  // another code (the kit's user_limit_reached, a day's limit) is no rate: waiting mends nothing.
  if (res.status === 429 && (!envelope.success || RATE_CODES.has(envelope.data.error.code)))
    return new RateLimitedError(retryAfterMs(res.headers.get('Retry-After')), message)
  if (envelope.success) return typedError(res.status, envelope.data.error.code, message)
  return new ApiError(res.status, res.status >= 500 ? 'internal' : 'unknown', '')
}

/** The longest Retry-After obeyed: a server (or a proxy) asking for hours is not followed. */
export const RETRY_AFTER_MAX_MS = 60_000

/** Retry-After is seconds or an HTTP date, capped at 60 s; anything else is ignored. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  if (/^\d+$/.test(header.trim())) return Math.min(RETRY_AFTER_MAX_MS, Number(header.trim()) * 1000)
  // Only an HTTP date (IMF-fixdate, "Wed, 21 Oct 2015 07:28:00 GMT"): Date.parse alone reads "1.5" as a year.
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(header.trim())) return undefined
  const date = Date.parse(header)
  return Number.isNaN(date) ? undefined : Math.min(RETRY_AFTER_MAX_MS, Math.max(0, date - now))
}

/** The contract's error codes as domain errors (see errors/ApiError.ts). */
export function typedError(status: number, code: string, message: string): ApiError {
  if (code === 'quote_expired') return new QuoteExpired(status, code, message)
  if (code === 'no_route') return new NoRoute(status, code, message)
  if (status === 400) return new FieldRejected(status, code, message)
  return new ApiError(status, code, message)
}
