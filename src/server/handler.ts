// The partner's backend for the widget: it serves exactly the partner-backend paths the widget
// calls, checks each request against the contract, knows the partner's user by the bearer token
// the widget sends (never by cookies), and forwards to the service's partner path with the API key.
// The key goes into one header of one outgoing request and nowhere else: every body and every log
// line the handler writes is scrubbed of it.
import { partnerCorsHeaders } from './cors'
import { duplicateKey } from './duplicateKey'
import { ROUTES, type Route, describeIssue } from './routes'

export type PartnerHandlerOptions = {
  /** The service, e.g. `https://api.example.com`; requests go to `${apiBase}/v1/...`. */
  apiBase: string
  /** The partner's API key. It never leaves this process except towards apiBase. */
  apiKey: string
  /** Exact origins of the pages that embed the widget; no other origin gets CORS headers. */
  allowedOrigins: readonly string[]
  /** Where the handler is mounted: `/partner` serves `/partner/card/purchase`, and so on. */
  basePath?: string
  /**
   * Your own user, by the `partnerToken` the widget sends as `Authorization: Bearer …`. Return
   * true (or any truthy value) to serve the request; false, nothing or a throw answers 401. The
   * request it gets has its JSON body (already size-checked) readable, to check that the
   * accountId or id it acts on belongs to that user. Required, unless `allowAnonymous`.
   */
  authenticate?: (token: string, request: Request) => unknown
  /** Serve every caller without a token (anyone who can reach the handler spends your key). */
  allowAnonymous?: boolean
  /** Answer `Access-Control-Allow-Credentials: true`, for a widget configured with `partnerCookies`. */
  allowCredentials?: boolean
  fetch?: typeof fetch
  /** Time allowed to the service per request (default 15 s). */
  timeoutMs?: number
  /** Where the handler reports upstream failures (default: console.warn). Lines never hold the key. */
  log?: (line: string) => void
}

export type PartnerHandler = (request: Request) => Promise<Response>

const MAX_BODY = 16 * 1024
const REDACTED = '[redacted]'

export function createPartnerHandler(options: PartnerHandlerOptions): PartnerHandler {
  const config = checkOptions(options)
  const { apiKey, authenticate } = config
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init))
  const secrets = [...new Set([apiKey, JSON.stringify(apiKey).slice(1, -1), encodeURIComponent(apiKey)])]
  const scrub = (text: string) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text)
  const log = (line: string) => {
    try {
      ;(options.log ?? ((l: string) => console.warn(`[stablecoin-widget/server] ${l}`)))(scrub(line))
    } catch {
      // A failing logger must not turn an answer into a crash.
    }
  }
  const routes = new Map<string, Route>(ROUTES.map((route) => [config.basePath + route.path, route]))

  return async function handlePartnerRequest(request: Request): Promise<Response> {
    const origin = request.headers.get('Origin')
    const cors = partnerCorsHeaders(origin, config)
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(scrub(JSON.stringify(body)), {
        status,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          Vary: 'Origin',
          ...cors,
          ...headers,
        },
      })
    // The envelope is the service's; the codes the kit answers with on its own are not (README,
    // "The kit's own codes"), so that the partner's logs tell a refusal here from the service's.
    const fail = (status: number, code: KitCode, message: string, headers?: Record<string, string>) =>
      reply(status, { error: { code, message } }, headers)

    try {
      // A page of another origin is refused outright, not only left without CORS headers: the
      // request would otherwise still run with the key. Callers without Origin are not browsers.
      if (origin !== null && !config.allowedOrigins.includes(origin)) return fail(403, 'origin_not_allowed', 'origin: not allowed')
      const url = new URL(request.url)
      const route = routes.get(url.pathname)
      if (!route) return fail(404, 'route_not_found', 'No such endpoint in the partner backend.')
      if (request.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { Vary: 'Origin', ...partnerCorsHeaders(origin, config, true) } })
      }
      if (request.method !== route.method) {
        return fail(405, 'method_not_allowed', `method: this endpoint takes ${route.method}`, { Allow: `${route.method}, OPTIONS` })
      }
      // The body is read once, with its size capped while it streams in.
      const input = route.method === 'GET' ? readQuery(url) : await readBody(request)
      if (authenticate) {
        const token = /^Bearer ([\x21-\x7e]+)$/i.exec(request.headers.get('Authorization') ?? '')?.[1]
        if (!token) return fail(401, 'unauthenticated', 'Authorization: a bearer token is required.')
        let accepted: unknown = false
        try {
          // A fresh copy, so that authenticate may read the body (the original is consumed).
          const text = 'text' in input ? input.text : undefined
          accepted = await authenticate(token, new Request(request.url, { method: request.method, headers: request.headers, body: text }))
        } catch (error) {
          log(`authenticate threw: ${describe(error)}`)
        }
        if (!accepted) return fail(401, 'unauthenticated', 'The partner token was refused.')
      }
      if ('problem' in input) return fail(input.status, input.code, input.problem)
      const parsed = route.schema.safeParse(input.value)
      if (!parsed.success) return fail(400, 'invalid_field', describeIssue(parsed.error, input.value))
      return await forward(route, parsed.data as Record<string, unknown>)
    } catch (error) {
      log(`unexpected error: ${describe(error)}`)
      return fail(500, 'kit_error', 'Unexpected error in the partner backend.')
    }

    async function forward(route: Route, data: Record<string, unknown>): Promise<Response> {
      const target = new URL(config.apiBase + route.upstream)
      const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' }
      let body: string | undefined
      if (route.method === 'GET') {
        for (const [name, value] of Object.entries(data)) if (value !== undefined) target.searchParams.set(name, String(value))
      } else {
        headers['Content-Type'] = 'application/json'
        body = JSON.stringify(data)
      }
      const where = `${route.method} ${route.upstream}`
      let res: Response
      let text: string
      try {
        // redirect: 'error': the key is never sent on to wherever a redirect points.
        res = await fetchFn(target, { method: route.method, headers, body, redirect: 'error', signal: AbortSignal.timeout(config.timeoutMs) })
        text = await res.text()
      } catch (error) {
        log(`${where}: the service could not be reached (${describe(error)})`)
        return fail(502, 'service_unreachable', 'The payment service could not be reached.')
      }
      const answer = parseJson(text)
      if (res.status === 401) {
        // The service refused our key: the buyer's token is fine, this backend is misconfigured.
        log(`${where}: the service refused the API key (401)`)
        return fail(502, 'service_refused_key', 'The payment service refused this backend.')
      }
      if (res.ok) {
        if (typeof answer !== 'object' || answer === null) {
          log(`${where}: the service answered ${res.status} with a body that is not a JSON object`)
          return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
        }
        return reply(res.status, answer)
      }
      const retryAfter = checkedRetryAfter(res.headers.get('Retry-After'))
      const extra: Record<string, string> = retryAfter ? { 'Retry-After': retryAfter } : {}
      const status = res.status >= 400 && res.status <= 599 ? res.status : 502
      // A code of the kit's own from the service would read, in the partner's logs, as the kit's.
      if (isEnvelope(answer) && !(KIT_CODES as ReadonlySet<string>).has(answer.error.code)) {
        return reply(status, { error: { code: answer.error.code, message: answer.error.message } }, extra)
      }
      log(`${where}: the service answered ${res.status} without the error envelope`)
      return fail(status, 'service_error', `The payment service answered ${res.status}.`, extra)
    }
  }
}

/** The codes the kit answers with on its own (README, "The kit's own codes"); the service uses none of them. */
export const KIT_CODES = new Set([
  'origin_not_allowed',
  'route_not_found',
  'method_not_allowed',
  'unauthenticated',
  'unsupported_media_type',
  'body_too_large',
  'invalid_json',
  'duplicate_key',
  'invalid_field',
  'kit_error',
  'service_unreachable',
  'service_refused_key',
  'service_unreadable',
  'service_error',
] as const)
type KitCode = typeof KIT_CODES extends Set<infer C> ? C : never

type Problem = { problem: string; status: number; code: KitCode }
type Input = { value: unknown; text?: string } | Problem

const refuse = (code: KitCode, problem: string, status = 400): Problem => ({ problem, status, code })

function readQuery(url: URL): Input {
  const value: Record<string, string> = {}
  for (const [name, field] of url.searchParams) {
    if (Object.hasOwn(value, name)) return refuse('duplicate_key', `${name}: given more than once`)
    value[name] = field
  }
  return { value }
}

async function readBody(request: Request): Promise<Input> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('Content-Type') ?? '')) {
    return refuse('unsupported_media_type', 'Content-Type: must be application/json', 415)
  }
  const tooLarge = refuse('body_too_large', 'body: at most 16 KiB', 413)
  if (Number(request.headers.get('Content-Length') ?? 0) > MAX_BODY) return tooLarge
  const text = await readLimited(request)
  if (text === undefined) return tooLarge
  if (text.trim() === '') return refuse('invalid_json', 'body: required')
  const value = parseJson(text)
  if (value === undefined) return refuse('invalid_json', 'body: not valid JSON')
  // JSON.parse keeps the last of two equal keys: the body would mean one thing here and another to
  // whoever reads the first (authenticate, a log).
  const twice = duplicateKey(text)
  if (twice !== undefined) return refuse('duplicate_key', `${twice}: given more than once`)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('invalid_json', 'body: must be a JSON object')
  return { value, text }
}

/**
 * Retry-After as RFC 9110 lets a sender write it: delta-seconds (digits only, at most 10 of
 * them) or an IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT"). Anything else, from the service or a
 * proxy in between, is dropped, never passed on.
 */
function checkedRetryAfter(value: string | null): string | undefined {
  if (value === null) return undefined
  if (/^[0-9]{1,10}$/.test(value)) return value
  if (!/^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/.test(value)) return undefined
  // toUTCString writes an IMF-fixdate: a date that reads back as written is a real moment (no
  // 31 February, no hour 25, its weekday right).
  return new Date(Date.parse(value)).toUTCString() === value ? value : undefined
}

/** The body as text, or undefined as soon as it passes MAX_BODY bytes (a chunked body has no Content-Length). */
async function readLimited(request: Request): Promise<string | undefined> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isEnvelope(value: unknown): value is { error: { code: string; message: string } } {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'string' && typeof error.message === 'string'
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return `${error.name}: ${error.message}${cause}`
  }
  return String(error)
}

function checkOptions(options: PartnerHandlerOptions) {
  const problem = (what: string) => new TypeError(`createPartnerHandler: ${what}`)
  let apiBase: URL
  try {
    apiBase = new URL(options.apiBase)
  } catch {
    throw problem('apiBase must be an absolute http or https URL')
  }
  if (apiBase.protocol !== 'https:' && apiBase.protocol !== 'http:') throw problem('apiBase must be an http or https URL')
  if (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
    throw problem('apiKey must be a non-empty string of printable characters without spaces')
  }
  const origins = options.allowedOrigins
  if (!Array.isArray(origins)) throw problem('allowedOrigins must be an array of origins like "https://shop.example"')
  for (const origin of origins) {
    if (typeof origin !== 'string' || !/^https?:\/\/[^/?#\s]+$/.test(origin)) {
      throw problem(`allowedOrigins: ${JSON.stringify(origin)} is not an origin like "https://shop.example"`)
    }
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  if (basePath && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) throw problem('basePath must be a path like "/partner"')
  if (options.authenticate !== undefined && typeof options.authenticate !== 'function') throw problem('authenticate must be a function')
  if (options.authenticate === undefined && options.allowAnonymous !== true) {
    throw problem('authenticate is required: it tells your users from anyone else who would spend your key (or set allowAnonymous: true)')
  }
  const timeoutMs = options.timeoutMs ?? 15_000
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw problem('timeoutMs must be a positive number')
  return {
    apiBase: apiBase.href.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    allowedOrigins: [...origins],
    allowCredentials: options.allowCredentials === true,
    basePath,
    authenticate: options.authenticate,
    timeoutMs,
  }
}
