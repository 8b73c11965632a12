// The kit on node:http (and https, Express, Connect, Fastify's raw request): one request in, one
// answer out, whatever the client does. The body is not read here: it is handed to the handler as
// a stream read on demand, capped at MAX_BODY, so a body is read only as far as the handler asks
// and never past the cap. A body not read to its end is never read on: the answer closes the
// connection (lingering: node/write.ts). A client that hangs up aborts the Request's signal; its answer
// is then written nowhere.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { MAX_BODY } from './readInput'
import { CappedBody } from './node/cappedBody'
import { JSON_HEADERS, behindClose, write } from './node/write'

export type NodeListenerOptions = {
  /**
   * Time for a request's body to arrive in full, from its headers (default 10 s). Past it, the
   * answer is 408 `request_timeout` and the connection is closed. It does not limit the handler.
   */
  bodyTimeoutMs?: number
  /** Where the adapter reports a handler that threw and a body read before it (default: console.warn). */
  log?: (line: string) => void
}

/** A fetch-standard handler: the kit's `createPartnerHandler(…)`, or any app's `fetch`. */
export type FetchHandler = (request: Request) => Response | Promise<Response>
/** A node:http request listener, also usable as Express or Connect middleware (it never calls `next`). */
export type NodeListener = {
  (req: IncomingMessage, res: ServerResponse): void
  /**
   * The same listener for the server's 'checkContinue' event:
   * `createServer(kit).on('checkContinue', kit.checkContinue)`. Without a 'checkContinue' listener,
   * node:http answers `100 Continue` to every request that says `Expect: 100-continue` before
   * anything sees it, inviting a body that may be refused. Through this one, `100 Continue` goes
   * out only when the handler first reads the body, and a body announced over 16 KiB is answered
   * 413 at once, uninvited.
   */
  readonly checkContinue: (req: IncomingMessage, res: ServerResponse) => void
}

// The kit routes by path alone: a Host header (anyone's to set, and a proxy's to rewrite) never
// reaches the Request, whose URL is this base with the request's path and query.
const BASE = 'http://localhost'

// Node's Request follows the signal it was made with through a weak reference to itself: once the
// Request is collected, its signal (which a handler may still hold) never aborts. Each is held
// here until its connection closes.
const held = new Set<Request>()

// Requests node:http handed over through 'checkContinue' (NodeListener's checkContinue): their
// client waits for `100 Continue` before it sends the body, and none has been sent.
const awaitingContinue = new WeakSet<IncomingMessage>()

type Refusal = 'bad_request' | 'request_timeout' | 'body_too_large' | 'kit_error'
const refusal = (status: number, code: Refusal, message: string) =>
  new Response(JSON.stringify({ error: { code, message } }), { status, headers: JSON_HEADERS })
const TOO_LARGE = () => refusal(413, 'body_too_large', 'body: at most 16 KiB')
const KIT_ERROR = () => refusal(500, 'kit_error', 'Unexpected error in the partner backend.')

/**
 * `createServer(createNodeListener(handle))`: the handler on node:http. In Express or Connect,
 * mount it before any body parser (`app.use('/partner', createNodeListener(handle))`); the path
 * it routes by is the request's whole path (`originalUrl`), as the handler's basePath names it.
 */
export function createNodeListener(handle: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000
  if (!Number.isFinite(bodyTimeoutMs) || bodyTimeoutMs <= 0) throw new TypeError('createNodeListener: bodyTimeoutMs must be a positive number')
  const log = (line: string) => {
    try {
      ;(options.log ?? ((l: string) => console.warn(`[stablecoin-widget/server] ${l}`)))(line)
    } catch {
      // A failing logger must not turn an answer into a crash.
    }
  }
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // Parsed from bytes read before an answer that closes the connection (a request pipelined
    // behind a refusal): never handed to the handler. The connection's close is under way; it is not
    // hastened, so that the answer before it still reaches the client.
    if (behindClose(req)) return
    serve(handle, req, res, bodyTimeoutMs, log).catch(() => {
      // serve answers every failure itself; this is only its last guard.
      res.destroy()
    })
  }
  const checkContinue = (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req)
    listener(req, res)
  }
  return Object.assign(listener, { checkContinue })
}

async function serve(handle: FetchHandler, req: IncomingMessage, res: ServerResponse, bodyTimeoutMs: number, log: (line: string) => void) {
  // A socket error while answering is the client gone: there is no one left to answer.
  res.on('error', () => {})
  const aborter = new AbortController()
  const continuing = awaitingContinue.has(req)
  const body = new CappedBody(req, continuing ? () => void (res.headersSent || res.destroyed || res.writeContinue()) : undefined)
  let answered = false
  const respond = async (response: Response) => {
    if (answered) return void response.body?.cancel().catch(() => {})
    answered = true
    clearTimeout(timer)
    await write(req, res, response, body.overflowed || body.failed !== undefined)
  }
  // The body must arrive within bodyTimeoutMs; once it has (or if there is none), nothing is cut.
  const timer = setTimeout(() => {
    if (req.complete || answered) return
    body.fail(new Error(`the request body did not arrive within ${bodyTimeoutMs} ms`))
    aborter.abort(body.failed)
    respond(refusal(408, 'request_timeout', `The request body did not arrive within ${bodyTimeoutMs / 1000} s.`)).catch(() => res.destroy())
  }, bodyTimeoutMs)
  timer.unref()
  res.once('close', () => {
    clearTimeout(timer)
    if (!res.writableFinished) aborter.abort(new Error('the client closed the connection'))
  })
  const request = toRequest(req, body, aborter.signal, log)
  if (!(request instanceof Request)) return respond(request)
  // A client waiting for `100 Continue` with a body over the cap: refused before it is invited.
  if (continuing && Number(req.headers['content-length']) > MAX_BODY) return respond(TOO_LARGE())
  held.add(request)
  res.once('close', () => held.delete(request))
  let response: Response
  try {
    const answer = await handle(request)
    if (!(answer instanceof Response)) throw new TypeError(`the handler answered ${typeof answer}, not a Response`)
    response = answer
  } catch (error) {
    if (!answered && !aborter.signal.aborted) log(`the handler threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
    response = KIT_ERROR()
  }
  // Over the cap, the kit's handler refuses (413, or 401 first when there is no user). A handler
  // that answers success to a body cut at the cap has acted on part of it: 413 instead.
  if (body.overflowed && response.status < 400) {
    void response.body?.cancel().catch(() => {})
    response = TOO_LARGE()
  }
  await respond(response)
}

/** The fetch-standard Request for `req`, or the answer refusing it (400). */
function toRequest(req: IncomingMessage, body: CappedBody, signal: AbortSignal, log: (line: string) => void): Request | Response {
  // Express and Connect strip the mount path from `url` and keep the whole one in `originalUrl`.
  const { originalUrl } = req as { originalUrl?: unknown }
  const target = typeof originalUrl === 'string' ? originalUrl : (req.url ?? '')
  let url: string
  try {
    // Origin-form (`/path?query`) is the path as sent, never `//host/…` read as an authority.
    // Absolute-form (`http://host/path`, what a proxy may send) gives its path and query only.
    if (target.startsWith('/')) url = new URL(`${BASE}${target}`).href
    else if (/^https?:\/\//i.test(target)) {
      const absolute = new URL(target)
      url = new URL(`${BASE}${absolute.pathname}${absolute.search}`).href
    } else throw new TypeError('not a path')
  } catch {
    return refusal(400, 'bad_request', 'The request target is not a path this server reads.')
  }
  // HEAD is answered as the GET would be, without its body (node:http leaves the body out).
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET')
  const headers = new Headers()
  try {
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      // HTTP/2's pseudo-headers (`:path`) are not headers.
      if (!req.rawHeaders[i].startsWith(':')) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1])
    }
  } catch {
    return refusal(400, 'bad_request', 'A request header could not be read.')
  }
  const length = req.headers['content-length']
  const hasBody = method !== 'GET' && (req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0'))
  if (hasBody && (req.readableDidRead || req.readableEnded)) {
    log('a request body was read before the kit: mount createNodeListener before any body parser')
    return refusal(500, 'kit_error', 'The request body was read before the partner backend (mount it before any body parser).')
  }
  try {
    return new Request(url, { method, headers, signal, body: hasBody ? body.stream() : null, duplex: 'half' } as RequestInit)
  } catch {
    // The methods the fetch standard forbids (CONNECT, TRACE, TRACK).
    return refusal(400, 'bad_request', `method: ${method} is not served here`)
  }
}
