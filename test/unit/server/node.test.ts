// @vitest-environment node
// createNodeListener on a real node:http server on 127.0.0.1, with a fake handler or the kit's own
// (createPartnerHandler with a fake fetch, no store opened): what an attacker sends (issue 37) costs
// one answer or nothing, never the process, and the body is read only as far as the cap.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { KIT_CODES, MAX_BODY, type PartnerHandlerOptions, createPartnerHandler } from '../../../src/server/handler'
import { type FetchHandler, type NodeListenerOptions, createNodeListener } from '../../../src/server/node'
import { chunkedFlood, parseAnswer, rawExchange, truncatedPost } from '../helpers/httpAttacks'

const MiB = 1024 * 1024
const JSON_POST = 'Content-Type: application/json\r\nConnection: close'

// Any rejection nobody handled, anywhere in this file's process, fails the test it happened in.
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown) => unhandled.push(reason)
beforeAll(() => void process.on('unhandledRejection', onUnhandled))
afterAll(() => void process.off('unhandledRejection', onUnhandled))
const servers: Server[] = []
afterEach(async () => {
  // A rejection surfaces a tick or two after its cause.
  await new Promise((resolve) => setTimeout(resolve, 20))
  for (const server of servers.splice(0)) server.closeAllConnections(), server.close()
  expect(unhandled.splice(0)).toEqual([])
})

type Served = { port: number; lines: string[]; bytesRead: () => number }

/** A server on the listener; `wrap` sees each request first (a framework's part, or a tamperer). */
async function serve(
  handle: FetchHandler,
  options: NodeListenerOptions = {},
  wrap?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void,
): Promise<Served> {
  const lines: string[] = []
  const listener = createNodeListener(handle, { log: (line) => lines.push(line), ...options })
  const server = createServer((req, res) => (wrap ? wrap(req, res, () => listener(req, res)) : listener(req, res)))
  // What the server read off the sockets it served (a refused one stays open a while, unread).
  const sockets: Socket[] = []
  server.on('connection', (socket: Socket) => sockets.push(socket))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, lines, bytesRead: () => sockets.reduce((sum, socket) => sum + socket.bytesRead, 0) }
}

/**
 * The kit's handler, mounted on /partner, its service a fake that answers /v1/limits. Without a
 * user, a body is refused 401 before its size is (the kit authenticates first).
 */
function kit(options: Partial<PartnerHandlerOptions> = {}) {
  const lines: string[] = []
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    allowedOrigins: ['https://shop.example'],
    basePath: '/partner',
    authenticate: () => undefined,
    allowAnonymous: true,
    fetch: (async () => Response.json([])) as unknown as typeof fetch,
    log: (line) => lines.push(line),
    ...options,
  })
  return { handle, lines }
}

const envelope = (answer: { body: string }) => JSON.parse(answer.body).error as { code: string; message: string }

describe('createNodeListener', () => {
  it("writes the handler's answer: status, every header (each Set-Cookie), the body with its length", async () => {
    const headers = new Headers({ 'Content-Type': 'text/plain', 'X-One': 'a' })
    headers.append('Set-Cookie', 'a=1')
    headers.append('Set-Cookie', 'b=2')
    const { port } = await serve(() => new Response('hello', { status: 201, headers }))
    const raw = await rawExchange(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')
    const answer = parseAnswer(raw)
    expect(answer.status).toBe(201)
    expect(answer.body).toBe('hello')
    expect(answer.headers['content-length']).toBe('5')
    expect(answer.headers['x-one']).toBe('a')
    expect(raw).toMatch(/\r\nset-cookie: a=1\r\nset-cookie: b=2\r\n/i)
  })

  it('hands over method, headers (repeated ones kept) and the path and query on a fixed base, never the Host', async () => {
    let seen: Request | undefined
    const { port } = await serve((request) => ((seen = request), new Response(null, { status: 204 })))
    await rawExchange(
      port,
      'GET /partner/limits?currency=EUR HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\nAccept: a\r\nAccept: b\r\nConnection: close\r\n\r\n',
    )
    expect(seen!.method).toBe('GET')
    expect(seen!.url).toBe('http://localhost/partner/limits?currency=EUR')
    expect(seen!.headers.get('accept')).toBe('a, b')
    expect(seen!.body).toBe(null)
    // `//host/path` is a path, not an authority; absolute-form gives its path and query only.
    await rawExchange(port, 'GET //evil.example/partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')
    expect(seen!.url).toBe('http://localhost//evil.example/partner/limits')
    await rawExchange(port, 'GET http://evil.example/partner/limits?x=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')
    expect(seen!.url).toBe('http://localhost/partner/limits?x=1')
  })

  it('mounted in Express or Connect, routes by the whole path (originalUrl), not the stripped url', async () => {
    const { handle } = kit()
    const { port } = await serve(handle, {}, (req, _res, next) => {
      ;(req as { originalUrl?: string }).originalUrl = req.url
      req.url = req.url!.replace(/^\/partner/, '')
      next()
    })
    const answer = parseAnswer(await rawExchange(port, 'GET /partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))
    expect(answer.status).toBe(200)
    expect(answer.body).toBe('[]')
  })

  it('a body announced and cut off by a hang-up costs nothing: no crash, the signal aborted, the next request answered', async () => {
    const { handle, lines } = kit()
    let signal: AbortSignal | undefined
    const { port } = await serve((request) => ((signal = request.signal), handle(request)))
    await truncatedPost(port, '/partner/card/purchase')
    await expect.poll(() => lines.length).toBe(1)
    expect(lines[0]).toMatch(/closed the connection before its body arrived/)
    expect(signal!.aborted).toBe(true)
    const answer = parseAnswer(await rawExchange(port, `POST /partner/card/purchase HTTP/1.1\r\nHost: a\r\n${JSON_POST}\r\nContent-Length: 2\r\n\r\n{}`))
    expect(answer.status).toBe(401)
    expect(envelope(answer).code).toBe('unauthenticated')
  })

  it('a chunked body over 16 KiB: 413 in the envelope, the connection closed, the rest never read', async () => {
    const { handle } = kit({ authenticate: (token) => token })
    const seen: number[] = []
    const served = await serve(async (request) => {
      const answer = await handle(request)
      seen.push(answer.status)
      return answer
    })
    const flood = await chunkedFlood(served.port, '/partner/card/purchase', 16 * MiB, 'Authorization: Bearer user-1\r\n')
    const answer = parseAnswer(flood.response)
    expect(answer.status).toBe(413)
    expect(envelope(answer).code).toBe('body_too_large')
    expect(answer.headers.connection).toBe('close')
    expect(flood.closed).toBe(true)
    // The socket buffers on both sides hold a few MiB at most; a server reading on takes all 16.
    expect(flood.written).toBeLessThan(8 * MiB)
    expect(served.bytesRead()).toBeGreaterThan(16 * 1024)
    expect(served.bytesRead()).toBeLessThan(1 * MiB)
    expect(seen).toEqual([413])
  })

  it('a refused connection is not reset the moment its answer is out: a client still sending reads the answer', async () => {
    const { handle } = kit({ authenticate: (token) => token })
    const served = await serve(handle)
    const { connect } = await import('node:net')
    // Half-open allowed: the client keeps writing after the server's end, as an upload does.
    const socket = connect({ port: served.port, host: '127.0.0.1', allowHalfOpen: true })
    const errors: string[] = []
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message))
    let raw = ''
    socket.on('data', (chunk) => (raw += chunk.toString('latin1')))
    const ended = new Promise((resolve) => socket.once('end', resolve))
    const write = (data: string | Buffer) => new Promise<Error | null | undefined>((resolve) => socket.write(data, resolve))
    await write(`POST /partner/card/purchase HTTP/1.1\r\nHost: a\r\n${JSON_POST}\r\nAuthorization: Bearer user-1\r\nContent-Length: ${MiB}\r\n\r\n`)
    await write(Buffer.alloc(32 * 1024, 'a'))
    // The answer and the server's end of the connection are here; the client writes on, twice.
    await ended
    expect(parseAnswer(raw).status).toBe(413)
    expect(await write(Buffer.alloc(64 * 1024, 'a'))).toBeFalsy()
    expect(await write(Buffer.alloc(64 * 1024, 'a'))).toBeFalsy()
    expect(errors).toEqual([])
    socket.destroy()
  })

  it('a Content-Length over 16 KiB: 413 before the body is read, and the connection closed', async () => {
    const { handle } = kit({ authenticate: (token) => token })
    const served = await serve(handle)
    const raw = await rawExchange(
      served.port,
      `POST /partner/card/purchase HTTP/1.1\r\nHost: a\r\n${JSON_POST}\r\nAuthorization: Bearer user-1\r\nContent-Length: ${64 * MiB}\r\n\r\n{"a":`,
    )
    const answer = parseAnswer(raw)
    expect(answer.status).toBe(413)
    expect(envelope(answer).code).toBe('body_too_large')
    expect(answer.headers.connection).toBe('close')
  })

  it('without a user, the kit refuses such a body 401 (it authenticates first): that refusal stands, and the read stopped alike', async () => {
    const { handle } = kit()
    const served = await serve(handle)
    const flood = await chunkedFlood(served.port, '/partner/card/purchase', 16 * MiB)
    const answer = parseAnswer(flood.response)
    expect(answer.status).toBe(401)
    expect(envelope(answer).code).toBe('unauthenticated')
    expect(answer.headers.connection).toBe('close')
    expect(flood.written).toBeLessThan(8 * MiB)
  })

  it('a handler that reads on past the cap (not the kit) gets MAX_BODY + 1 bytes, then an error; its success becomes 413', async () => {
    let got = 0
    let failure: unknown
    const served = await serve(async (request) => {
      const reader = request.body!.getReader()
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          got += value.byteLength
        }
      } catch (error) {
        failure = error
      }
      return new Response('read it all')
    })
    const flood = await chunkedFlood(served.port, '/anything', 4 * MiB)
    const answer = parseAnswer(flood.response)
    expect(answer.status).toBe(413)
    expect(envelope(answer).code).toBe('body_too_large')
    expect(got).toBe(MAX_BODY + 1)
    expect(String(failure)).toMatch(/over 16384 bytes/)
  })

  it('a body that trickles: 408 request_timeout in the envelope, the connection closed, the handler aborted', async () => {
    const { handle, lines } = kit()
    let signal: AbortSignal | undefined
    const { port } = await serve((request) => ((signal = request.signal), handle(request)), { bodyTimeoutMs: 100 })
    const answer = parseAnswer(await rawExchange(port, `POST /partner/card/purchase HTTP/1.1\r\nHost: a\r\n${JSON_POST}\r\nContent-Length: 100\r\n\r\n{"a"`))
    expect(answer.status).toBe(408)
    expect(envelope(answer).code).toBe('request_timeout')
    expect(answer.headers.connection).toBe('close')
    expect(signal!.aborted).toBe(true)
    // The kit's handler, its read failed, answered too: that answer went nowhere.
    await expect.poll(() => lines.join('\n')).toMatch(/did not arrive within 100 ms/)
  })

  it('the body timeout does not cut a handler that is slow after the body arrived', async () => {
    const { port } = await serve(
      async (request) => {
        const text = await request.text()
        await new Promise((resolve) => setTimeout(resolve, 150))
        return new Response(`got ${text}`)
      },
      { bodyTimeoutMs: 50 },
    )
    const answer = parseAnswer(await rawExchange(port, `POST /x HTTP/1.1\r\nHost: a\r\n${JSON_POST}\r\nContent-Length: 2\r\n\r\n{}`))
    expect(answer.status).toBe(200)
    expect(answer.body).toBe('got {}')
  })

  it('HEAD: answered as the GET (the handler sees GET), with its headers and length, without a body', async () => {
    const { handle } = kit()
    let method: string | undefined
    const { port } = await serve((request) => ((method = request.method), handle(request)))
    const raw = await rawExchange(port, 'HEAD /partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')
    expect(method).toBe('GET')
    const answer = parseAnswer(raw)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^application\/json/)
    expect(answer.headers['content-length']).toBe('2')
    expect(raw.endsWith('\r\n\r\n')).toBe(true)
  })

  it.each([
    ['an IPv6 host that is not one', 'GET http://[x]/partner/limits HTTP/1.1'],
    ['a port that is not one', 'GET http://a:b:c/partner/limits HTTP/1.1'],
    ['a percent-escape in the host', 'GET http://%zz/partner/limits HTTP/1.1'],
    ['the asterisk form', 'OPTIONS * HTTP/1.1'],
    ['another scheme', 'GET ftp://x/partner/limits HTTP/1.1'],
    ['a method the fetch standard forbids', 'TRACE /partner/limits HTTP/1.1'],
  ])('a request it cannot read (%s): 400 bad_request, the handler never called', async (_, line) => {
    let called = false
    const { port } = await serve(() => ((called = true), new Response('')))
    const answer = parseAnswer(await rawExchange(port, `${line}\r\nHost: a\r\nConnection: close\r\n\r\n`))
    expect(answer.status).toBe(400)
    expect(envelope(answer).code).toBe('bad_request')
    expect(called).toBe(false)
  })

  it('a header value the Headers class refuses: 400 bad_request', async () => {
    let called = false
    // node:http's parser refuses such a value itself; a parser told to be lenient may not.
    const { port } = await serve(
      () => ((called = true), new Response('')),
      {},
      (req, _res, next) => {
        req.rawHeaders.push('X-Bad', 'a\u0000b')
        next()
      },
    )
    const answer = parseAnswer(await rawExchange(port, 'GET /partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))
    expect(answer.status).toBe(400)
    expect(envelope(answer).code).toBe('bad_request')
    expect(called).toBe(false)
  })

  it('a method node:http takes but the kit does not serve (PROPFIND) reaches the kit: 405', async () => {
    const { handle } = kit()
    const { port } = await serve(handle)
    const answer = parseAnswer(await rawExchange(port, 'PROPFIND /partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))
    expect(answer.status).toBe(405)
    expect(envelope(answer).code).toBe('method_not_allowed')
  })

  it('a client that hangs up while the handler works: the signal aborts, the late answer goes nowhere, nothing throws', async () => {
    let aborted!: () => void
    const abortSeen = new Promise<void>((resolve) => (aborted = resolve))
    let answeredLate = false
    const { port } = await serve(async (request) => {
      if (!request.url.endsWith('/slow')) return new Response('fine')
      await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve()))
      aborted()
      answeredLate = true
      return new Response('too late')
    })
    const { connect } = await import('node:net')
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /slow HTTP/1.1\r\nHost: a\r\n\r\n'))
    socket.on('error', () => {})
    setTimeout(() => socket.destroy(), 50)
    await abortSeen
    expect(answeredLate).toBe(true)
    expect(parseAnswer(await rawExchange(port, 'GET /other HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).body).toBe('fine')
  })

  it('the signal aborts on a hang-up even when the handler keeps only the signal, not the Request', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    let waiting!: () => void
    const handlerWaits = new Promise<void>((resolve) => (waiting = resolve))
    let aborted = false
    const { port } = await serve((request) => {
      const { signal } = request
      waiting()
      return new Promise<Response>((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve(new Response('late')))))
    })
    const { connect } = await import('node:net')
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /slow HTTP/1.1\r\nHost: a\r\n\r\n'))
    socket.on('error', () => {})
    await handlerWaits
    for (let i = 0; i < 3; i++) {
      gc()
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    socket.destroy()
    await expect.poll(() => aborted).toBe(true)
  })

  it.each([
    ['throws', () => Promise.reject(new Error('boom'))],
    ['answers something else', () => 'not a response' as unknown as Response],
  ])('a handler that %s: 500 kit_error in the envelope, logged', async (_, handler) => {
    const served = await serve(handler as FetchHandler)
    const answer = parseAnswer(await rawExchange(served.port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))
    expect(answer.status).toBe(500)
    expect(envelope(answer).code).toBe('kit_error')
    expect(served.lines).toHaveLength(1)
  })

  it('an answer header node:http refuses: 500 kit_error instead', async () => {
    const { port } = await serve(() => new Response('x', { headers: { 'X-Odd': 'a\u0001b' } }))
    const answer = parseAnswer(await rawExchange(port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))
    expect(answer.status).toBe(500)
    expect(envelope(answer).code).toBe('kit_error')
  })

  it('a body a parser read before the kit: 500 kit_error, saying to mount the kit before it', async () => {
    let called = false
    const served = await serve(
      () => ((called = true), new Response('')),
      {},
      (req, _res, next) => {
        req.on('data', () => {})
        req.on('end', next)
      },
    )
    const answer = parseAnswer(await rawExchange(served.port, `POST /partner/card/purchase HTTP/1.1\r\nHost: a\r\n${JSON_POST}\r\nContent-Length: 2\r\n\r\n{}`))
    expect(answer.status).toBe(500)
    expect(envelope(answer).message).toMatch(/before any body parser/)
    expect(called).toBe(false)
    expect(served.lines).toEqual([expect.stringMatching(/before any body parser/)])
  })

  it('streams a long answer, and keeps the connection open after a body read to its end', async () => {
    const long = 'x'.repeat(300 * 1024)
    const { port } = await serve(async (request) => new Response(`${await request.text()}${long}`))
    const { connect } = await import('node:net')
    const socket = connect(port, '127.0.0.1')
    let raw = ''
    socket.on('data', (chunk) => (raw += chunk.toString('latin1')))
    socket.write(`POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`)
    await expect.poll(() => raw.endsWith('0\r\n\r\n')).toBe(true)
    const answer = parseAnswer(raw)
    expect(answer.headers['transfer-encoding']).toBe('chunked')
    expect(answer.headers.connection).not.toBe('close')
    expect(answer.body).toBe(`{}${long}`)
    expect(socket.destroyed).toBe(false)
    socket.destroy()
  })

  it("answers with the kit's own codes", () => {
    for (const code of ['bad_request', 'request_timeout', 'body_too_large', 'kit_error']) expect(KIT_CODES.has(code as never), code).toBe(true)
  })
})
