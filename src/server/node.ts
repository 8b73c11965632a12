// The kit on node:http (and https, Express, Connect, Fastify's raw request): one request in, one
// answer out, whatever the client does. The body is not read here: it is handed to the handler as
// a stream read on demand, capped at MAX_BODY, so a body is read only as far as the handler asks
// and never past the cap. A body not read to its end is never read on: the answer closes the
// connection (lingering: linger()). A client that hangs up aborts the Request's signal; its answer
// is then written nowhere.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { MAX_BODY } from './readInput'

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
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

// The kit routes by path alone: a Host header (anyone's to set, and a proxy's to rewrite) never
// reaches the Request, whose URL is this base with the request's path and query.
const BASE = 'http://localhost'
// An answer up to this size is sent with its Content-Length; a longer one is streamed.
const BUFFERED = 64 * 1024
// How long a connection closed with its body unread waits after the answer before it is destroyed.
const LINGER_MS = 2000
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }

// Node's Request follows the signal it was made with through a weak reference to itself: once the
// Request is collected, its signal (which a handler may still hold) never aborts. Each is held
// here until its connection closes.
const held = new Set<Request>()

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
  return (req, res) => {
    serve(handle, req, res, bodyTimeoutMs, log).catch(() => {
      // serve answers every failure itself; this is only its last guard.
      res.destroy()
    })
  }
}

async function serve(handle: FetchHandler, req: IncomingMessage, res: ServerResponse, bodyTimeoutMs: number, log: (line: string) => void) {
  // A socket error while answering is the client gone: there is no one left to answer.
  res.on('error', () => {})
  const aborter = new AbortController()
  const body = new CappedBody(req)
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

/**
 * The request's body as a ReadableStream that reads `req` only when pulled (no buffering ahead of
 * the reader), and never past MAX_BODY: the read that crosses it hands over one byte more than
 * MAX_BODY (the kit's handler then answers 413 itself) and every later read fails.
 */
class CappedBody {
  overflowed = false
  failed: Error | undefined
  private received = 0
  private wake: (() => void) | undefined

  constructor(private readonly req: IncomingMessage) {}

  private release() {
    for (const event of ['readable', 'end', 'close', 'error']) this.req.off(event, this.notify)
  }

  fail(error: Error) {
    this.failed ??= error
    this.notify()
  }

  private readonly notify = () => {
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  stream(): ReadableStream<Uint8Array> {
    const { req } = this
    let listening = false
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          if (!listening) {
            listening = true
            for (const event of ['readable', 'end', 'close', 'error']) req.on(event, this.notify)
          }
          for (;;) {
            if (this.failed) return controller.error(this.failed)
            const chunk: Buffer | null = req.destroyed ? null : req.read()
            if (chunk !== null) {
              this.received += chunk.byteLength
              if (this.received > MAX_BODY) {
                this.overflowed = true
                this.failed = new Error(`the request body is over ${MAX_BODY} bytes`)
                return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength - (this.received - MAX_BODY - 1)))
              }
              return controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
            }
            if (req.readableEnded) return controller.close()
            if (req.destroyed) return controller.error(new Error('the client closed the connection before its body arrived'))
            await new Promise<void>((resolve) => (this.wake = resolve))
          }
        },
        cancel: () => this.release(),
      },
      { highWaterMark: 0 },
    )
  }
}

/**
 * Writes `response` to `res`, if the client is still there. A body not read to its end (`close`,
 * or the request not complete) closes the connection after the answer, lingering (`linger`).
 */
async function write(req: IncomingMessage, res: ServerResponse, response: Response, close: boolean) {
  const reader = response.body?.getReader()
  try {
    if (res.destroyed || res.headersSent) return void (await reader?.cancel())
    const chunks: Uint8Array[] = []
    let size = 0
    let done = !reader
    while (!done && size <= BUFFERED) {
      const read = await reader!.read()
      if (read.done) done = true
      else {
        chunks.push(read.value)
        size += read.value.byteLength
      }
    }
    if (res.destroyed) return void (await reader?.cancel())
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of response.headers) {
      if (/^(connection|keep-alive|transfer-encoding|content-length)$/i.test(name)) continue
      const had = headers[name]
      headers[name] = had === undefined ? value : [had, value].flat()
    }
    if (done) headers['content-length'] = String(size)
    if (close || !req.complete) headers.connection = 'close'
    if (!req.complete) linger(req)
    res.writeHead(response.status, headers)
    for (const chunk of chunks) res.write(chunk)
    while (!done && !res.destroyed) {
      const read = await reader!.read()
      if (read.done) done = true
      else if (!res.write(read.value)) await drained(res)
    }
    if (res.destroyed) await reader?.cancel()
    else res.end()
  } catch {
    // A header node:http refuses, or a body that failed while read: 500 if nothing is sent yet.
    await reader?.cancel().catch(() => {})
    if (res.destroyed) return
    if (res.headersSent) return void res.destroy()
    const body = JSON.stringify({ error: { code: 'kit_error', message: 'Unexpected error in the partner backend.' } })
    res.writeHead(500, { ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    res.end(body)
  }
}

/**
 * node:http closes a connection answered `Connection: close` as soon as the answer is flushed
 * (socket.destroySoon). Body bytes still unread then make the kernel send a reset, which reaches a
 * client still sending together with the answer, and the client can lose the answer before it has
 * read it (RFC 9112, 9.6). So the close waits: the answer and the end of our side go out, nothing
 * more is read (a client closing its side is not seen behind the unread bytes), and the connection
 * is destroyed LINGER_MS later. What it costs is a socket held that long, not a byte more read.
 */
function linger(req: IncomingMessage) {
  const { socket } = req
  if (!socket || socket.destroyed) return
  socket.destroySoon = () => {
    socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}
