// The sandbox service: the widget path exactly as the contract states it (origin allowlist with
// CORS, 5 requests per 10 s per IP, the error envelope), plus /__sandbox/* controls for tests.
import { createServer } from 'node:http'
import { HttpError, corsHeaders, readJson, readText, send, sendError } from './http.mjs'
import { createIpLimiter, createKeyLimiter } from './rateLimit.mjs'
import { scheduledPayments } from './routes/scheduled.mjs'

const WIDGET_PATH = /^\/(deposit\/|card\/quote$|fiat\/)/
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `http://localhost:5173`, `http://127.0.0.1:4173`, `http://[::1]:8787`: a page on this machine. */
export function isLoopbackOrigin(origin) {
  try {
    const url = new URL(origin)
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin
  } catch {
    return false
  }
}

/**
 * routes: { 'POST /deposit/quote': async ({ body, query, req }) => ({ status?, body, headers? }) }
 * Widget-path routes get the origin check, CORS, the IP limit and faults; other routes (the
 * partner-backend stand-in, the card page) are registered by their modules as plain routes.
 */
export function createSandboxServer({ allowedOrigins, routes, control = {} }) {
  const limiter = createIpLimiter()
  const keyLimiter = createKeyLimiter()
  // The scheduled status progression (routes/scheduled.mjs): on its own clock, its own count of the key's rate.
  const scheduled = scheduledPayments()
  const log = []
  let faults = []
  const allowed = new Set(allowedOrigins)

  // A fault without a path hits the next widget-path request; the partner-backend stand-in
  // (/partner/...) only takes faults that name its path.
  function takeFault(path, named = false) {
    const i = faults.findIndex((f) => f.count > 0 && (f.path ? f.path === path : !named))
    if (i < 0) return undefined
    const fault = faults[i]
    fault.count--
    if (fault.count <= 0) faults.splice(i, 1)
    return fault
  }

  async function handleControl(req, res, path) {
    // Reset, faults, funding: only a test runner (no Origin) or a page on this machine may. Any
    // other page gets a refusal, and no CORS headers to read it with.
    const origin = req.headers.origin
    if (origin !== undefined && !isLoopbackOrigin(origin)) throw new HttpError(403, 'permission_denied', 'origin: sandbox controls answer loopback pages only')
    const headers = origin ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Allow-Headers': 'Content-Type' } : {}
    if (req.method === 'OPTIONS') return send(res, 204, undefined, headers)
    if (path === '/__sandbox/log') return send(res, 200, log, headers)
    if (path === '/__sandbox/reset' && req.method === 'POST') {
      log.length = 0
      faults = []
      limiter.reset()
      keyLimiter.reset()
      scheduled.reset()
      await control.reset?.()
      return send(res, 200, { ok: true }, headers)
    }
    if (path === '/__sandbox/control' && req.method === 'POST') {
      const body = (await readJson(req)) ?? {}
      if (Array.isArray(body.faults)) faults.push(...body.faults.map((f) => ({ ...f, count: f.count ?? 1 })))
      scheduled.set(body)
      await control.set?.(body)
      return send(res, 200, { ok: true, faults }, headers)
    }
    const handler = control.routes?.[`${req.method} ${path}`] ?? scheduled.controlRoutes[`${req.method} ${path}`]
    if (handler) {
      const out = await handler({ body: req.method === 'POST' ? await readJson(req) : undefined, req })
      return send(res, out.status ?? 200, out.body, { ...headers, ...out.headers })
    }
    throw new HttpError(404, 'not_found', `${path}: no such control`)
  }

  async function handleWidget(req, res, url, entry) {
    const origin = req.headers.origin
    if (!origin || !allowed.has(origin)) {
      // No CORS headers: the browser refuses to hand the answer to a page of another origin.
      throw new HttpError(403, 'permission_denied', 'origin: not on the allowlist')
    }
    const cors = corsHeaders(origin)
    if (req.method === 'OPTIONS') {
      return send(res, 204, undefined, {
        ...cors,
        'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': '600',
      })
    }
    const wait = limiter.take(entry.ip)
    if (wait) {
      throw new HttpError(429, 'rate_limited', 'Too many requests: at most 5 per 10 seconds.', { ...cors, 'Retry-After': String(wait) })
    }
    const fault = takeFault(url.pathname)
    if (fault) {
      entry.fault = fault.kind
      if (fault.kind === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs ?? 3_000))
      else if (fault.kind === '429') {
        const headers = fault.retryAfter === undefined ? cors : { ...cors, 'Retry-After': String(fault.retryAfter) }
        throw new HttpError(429, 'rate_limited', 'Too many requests.', headers)
      } else if (fault.kind === '500') throw new HttpError(500, 'internal', 'Injected server error.', cors)
      else if (fault.kind === '502') throw new HttpError(502, 'upstream_error', 'Injected upstream error.', cors)
      else if (fault.kind === 'malformed') return send(res, 200, { unexpected: true }, cors)
      else if (fault.kind === 'garbage') return send(res, 200, '<html>not json', cors)
    }
    return dispatch(req, res, url, cors)
  }

  async function dispatch(req, res, url, headers = {}) {
    const route = `${req.method} ${url.pathname}`
    const own = routes[route]
    // A scheduled payment's status is the scheduled world's; any other, the route's own.
    const handler = scheduled.handles(route)
      ? async (input) =>
          scheduled.answer(route, input) ?? (own ? own(input) : Promise.reject(new HttpError(404, 'not_found', 'No such payment under this key.', headers)))
      : own
    if (!handler) throw new HttpError(404, 'not_found', `${url.pathname}: no such endpoint`, headers)
    // HTML forms (the card and identity page stand-ins) post url-encoded bodies, handed over as text;
    // so does the partner kit's every body: it reads the bytes itself, as a partner mounts it.
    const form = /application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '') || url.pathname.startsWith('/partner/')
    const body = req.method !== 'POST' ? undefined : form ? await readText(req) : await readJson(req)
    const out = await handler({ body, query: url.searchParams, req, allowedOrigins: allowed })
    if (out.redirect) {
      res.writeHead(303, { Location: out.redirect, ...headers })
      return res.end()
    }
    if (out.html !== undefined) {
      res.writeHead(out.status ?? 200, { 'Content-Type': 'text/html; charset=utf-8', ...headers, ...out.headers })
      return res.end(out.html)
    }
    if (out.raw !== undefined) {
      res.writeHead(out.status ?? 200, { 'Content-Type': `${out.type}; charset=utf-8`, ...headers })
      return res.end(out.raw)
    }
    return send(res, out.status ?? 200, out.body, { ...headers, ...out.headers })
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.local')
    const path = url.pathname
    const entry = {
      t: Date.now(),
      method: req.method,
      path,
      origin: req.headers.origin,
      ip: req.socket.remoteAddress,
      status: 0,
    }
    res.on('finish', () => {
      entry.status = res.statusCode
    })
    try {
      if (path.startsWith('/__sandbox/')) return await handleControl(req, res, path)
      // The partner demo's reconciler (routes/partnerDemo.mjs) keeps its own record of its requests,
      // and the scheduled world's caller (a bench: a hundred thousand of them) its own.
      const simulated = path.startsWith('/v1/') ? scheduled.clockOf(req) : undefined
      if (!req.headers['x-sandbox-reconciler'] && simulated === undefined) log.push(entry)
      if (WIDGET_PATH.test(path)) return await handleWidget(req, res, url, entry)
      // The partner path: one rate per key (KEY_RATE), counted for whatever key is presented.
      const key = path.startsWith('/v1/') ? req.headers.authorization : undefined
      const keyWait = !key ? 0 : simulated === undefined ? keyLimiter.take(key) : scheduled.takeKey(key, simulated)
      if (keyWait) throw new HttpError(429, 'rate_limited', "Too many requests for this key: over the key's rate.", { 'Retry-After': String(keyWait) })
      const plain = control.plainHeaders?.(req) ?? {}
      if (req.method === 'OPTIONS') return send(res, 204, undefined, { ...plain, 'Access-Control-Max-Age': '600' })
      const fault = path.startsWith('/partner/') ? takeFault(path, true) : undefined
      if (fault) {
        entry.fault = fault.kind
        if (fault.kind === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs ?? 3_000))
        else if (fault.kind === '500') throw new HttpError(500, 'internal', 'Injected server error.')
        else if (fault.kind === '502') throw new HttpError(502, 'upstream_error', 'Injected upstream error.')
        else if (fault.kind === 'malformed') return send(res, 200, { unexpected: true }, plain)
      }
      return await dispatch(req, res, url, plain)
    } catch (error) {
      const known = error instanceof HttpError ? error : new HttpError(500, 'internal', 'Unexpected server error.')
      if (!(error instanceof HttpError)) console.error('[sandbox]', error)
      const origin = req.headers.origin
      const cors = origin && allowed.has(origin) && WIDGET_PATH.test(path) ? corsHeaders(origin) : (control.plainHeaders?.(req) ?? {})
      if (!res.headersSent) sendError(res, known, cors)
    }
  })
  return server
}
