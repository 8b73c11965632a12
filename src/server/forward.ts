// The one place the partner's API key is put on a request: one header of one request to the
// service, never redirected, cut off after the timeout. Everything the kit writes (answers, log
// lines) goes through the scrubber, which knows every key read so far in every spelling a body
// could carry it. The handler's forward() and the reconciler's status fetcher both send here.
import { type ApiKey, keyFingerprint, readApiKey } from './apiKey'
import { describe } from './describe'
import { type Answerer, KIT_CODES } from './kitCodes'

const REDACTED = '[redacted]'

export type Sent = { ok: true; key: string; res: Response; text: string } | { ok: false; stage: 'key' | 'network'; error: unknown }

/** Sends to the service with the key; `onKey` sees the key before it leaves (to scrub it later). */
export async function sendWithKey(
  service: { apiKey: ApiKey; fetch: typeof fetch; timeoutMs: number },
  method: 'GET' | 'POST',
  url: string | URL,
  body: unknown,
  onKey?: (key: string) => void,
): Promise<Sent> {
  let key: string
  try {
    key = await readApiKey(service.apiKey)
    onKey?.(key)
  } catch (error) {
    return { ok: false, stage: 'key', error }
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  try {
    // redirect: 'error': the key is never sent on to wherever a redirect points.
    const res = await service.fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(service.timeoutMs),
    })
    return { ok: true, key, res, text: await res.text() }
  } catch (error) {
    return { ok: false, stage: 'network', error }
  }
}

export type KeyGuard = {
  /** Remembers a key read, in each spelling, and gives it back. */
  keep(key: string): string
  scrub(text: string): string
  /** Logs the line, scrubbed; a failing logger is ignored. */
  log(line: string): void
  /** Logs the line once per topic. */
  logOnce(topic: string, line: string): void
}

export function createKeyGuard(apiKey: ApiKey, logOption?: (line: string) => void): KeyGuard {
  const secrets = new Set<string>()
  const keep = (key: string) => {
    for (const spelling of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)]) secrets.add(spelling)
    return key
  }
  if (typeof apiKey === 'string') keep(apiKey)
  const scrub = (text: string) => [...secrets].reduce((out, secret) => out.split(secret).join(REDACTED), text)
  const log = (line: string) => {
    try {
      ;(logOption ?? ((l: string) => console.warn(`[stablecoin-widget/server] ${l}`)))(scrub(line))
    } catch {
      // A failing logger must not turn an answer into a crash.
    }
  }
  const once = new Set<string>()
  const logOnce = (topic: string, line: string) => {
    if (once.has(topic)) return
    once.add(topic)
    log(line)
  }
  return { keep, scrub, log, logOnce }
}

export type Upstream = { method: 'GET' | 'POST'; upstream: string }
/** `onSuccess` sees a 2xx answer first, and may answer instead of it. */
export type OnSuccess = (answer: object) => Promise<Response | undefined>
export type Forward = (to: Answerer, route: Upstream, data: Record<string, unknown>, onSuccess?: OnSuccess) => Promise<Response>

/** Forwards the checked fields with the key, and maps the service's answer to the kit's. */
export function createForward(config: { apiBase: string; apiKey: ApiKey; timeoutMs: number }, fetchFn: typeof fetch, guard: KeyGuard): Forward {
  const { log, logOnce } = guard
  return async function forward({ reply, fail }, route, data, onSuccess) {
    const target = new URL(config.apiBase + route.upstream)
    const where = `${route.method} ${route.upstream}`
    if (route.method === 'GET') {
      for (const [name, value] of Object.entries(data)) if (value !== undefined) target.searchParams.set(name, String(value))
    }
    const sent = await sendWithKey({ ...config, fetch: fetchFn }, route.method, target, route.method === 'GET' ? undefined : data, guard.keep)
    if (!sent.ok && sent.stage === 'key') {
      log(`apiKey could not be read: ${describe(sent.error)}`)
      return fail(500, 'kit_error', 'Unexpected error in the partner backend.')
    }
    if (!sent.ok) {
      log(`${where}: the service could not be reached (${describe(sent.error)})`)
      return fail(502, 'service_unreachable', 'The payment service could not be reached.')
    }
    const { res, key } = sent
    const answer = parseJson(sent.text)
    if (res.status === 401) {
      // The service refused our key: the buyer's token is fine, this backend is misconfigured.
      // Once per key: a rotated key that is refused too gets its own line.
      const print = await keyFingerprint(key)
      logOnce(`401 ${print}`, `${where}: the service refused the API key with fingerprint ${print} (401)`)
      return fail(502, 'service_refused_key', 'The payment service refused this backend.')
    }
    if (res.ok) {
      if (typeof answer !== 'object' || answer === null) {
        log(`${where}: the service answered ${res.status} with a body that is not a JSON object`)
        return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
      }
      return (await onSuccess?.(answer)) ?? reply(res.status, answer)
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

function isEnvelope(value: unknown): value is { error: { code: string; message: string } } {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'string' && typeof error.message === 'string'
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

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
