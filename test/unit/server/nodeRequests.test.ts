// @vitest-environment node
// createNodeListener against what a client on the internet sends, over raw sockets, with the kit
// on a fake service: the body cap to the byte, framing that lies, HEAD, request targets around
// basePath, slow and vanishing clients. Each costs one answer, never the process.
import { afterEach, describe, expect, it } from 'vitest'
import { type FetchHandler, type NodeListenerOptions, createNodeListener } from '../../../src/server/node'
import { answers, client, code, type Listening, listen, rawExchange, recordingKit } from '../helpers/httpAttacks'

const CAP = 16 * 1024
const JSON_TYPE = 'Content-Type: application/json'

const running: Listening[] = []
afterEach(() => {
  for (const served of running.splice(0)) served.close()
})

/** The listener on a server; `seen`: each request the handler got. */
async function start(handle: FetchHandler, options: NodeListenerOptions = {}) {
  const seen: Request[] = []
  const served = await listen(createNodeListener((request) => (seen.push(request), handle(request)), { log: () => {}, ...options }))
  running.push(served)
  return { ...served, seen }
}

const kit = recordingKit

/** A JSON object of exactly `size` bytes (one padded field the route does not define). */
function bodyOf(size: number): string {
  const head = '{"pad":"'
  const tail = '"}'
  return head + 'a'.repeat(size - head.length - tail.length) + tail
}

/** `text` as a chunked body in chunks of `size` bytes. */
function chunked(text: string, size: number): string {
  let out = ''
  for (let at = 0; at < text.length; at += size) {
    const part = text.slice(at, at + size)
    out += `${part.length.toString(16)}\r\n${part}\r\n`
  }
  return `${out}0\r\n\r\n`
}

describe('the body cap, exactly', () => {
  it.each([
    ['Content-Length', (body: string) => `Content-Length: ${body.length}\r\n\r\n${body}`],
    ['chunked, 1-byte chunks', (body: string) => `Transfer-Encoding: chunked\r\n\r\n${chunked(body, 1)}`],
    ['chunked, 7-byte chunks', (body: string) => `Transfer-Encoding: chunked\r\n\r\n${chunked(body, 7)}`],
  ])('%s: 16384 bytes are read (400 for the unknown field), 16385 are 413', async (_, frame) => {
    const { handle } = kit()
    const served = await start(handle)
    const send = (size: number) =>
      rawExchange(
        served.port,
        `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nConnection: close\r\n${frame(bodyOf(size))}`,
      )
    const [atCap] = answers(await send(CAP))
    expect([atCap.status, code(atCap.body)]).toEqual([400, 'invalid_field'])
    const [over] = answers(await send(CAP + 1))
    expect([over.status, code(over.body)]).toEqual([413, 'body_too_large'])
  })
})

describe('Content-Length lies', () => {
  it('announces more than it sends: 408 in the envelope once bodyTimeoutMs passes, the connection closed', async () => {
    const { handle } = kit()
    const served = await start(handle, { bodyTimeoutMs: 100 })
    const raw = await rawExchange(
      served.port,
      `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nContent-Length: 1000\r\n\r\n{"accountId":`,
    )
    const [answer] = answers(raw)
    expect([answer.status, code(answer.body)]).toEqual([408, 'request_timeout'])
    expect(answer.headers.connection).toBe('close')
  })

  it('sends more than it announces: the kit sees only the announced bytes; the rest is no request of the kit', async () => {
    const { handle, forwarded } = kit()
    const served = await start(handle)
    const raw = await rawExchange(
      served.port,
      `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nContent-Length: 2\r\n\r\n{}","x":"y"}\r\n\r\n`,
    )
    // {} is the body (the fields missing: 400), or node:http's own 400 for the bytes after it came
    // first and closed the connection: either way one request of the kit's, nothing forwarded.
    expect(answers(raw)[0]?.status).toBe(400)
    expect(served.seen.length).toBe(1)
    expect(forwarded).toEqual([])
  })
})

describe('HEAD, targets and paths around basePath', () => {
  it('HEAD on a POST route: 405 with Allow, no body bytes, nothing forwarded', async () => {
    const { handle, forwarded } = kit()
    const served = await start(handle)
    const raw = await rawExchange(served.port, 'HEAD /partner/bank/payout HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer alice\r\nConnection: close\r\n\r\n')
    expect(raw).toMatch(/^HTTP\/1\.1 405 /)
    expect(raw).toMatch(/\r\nallow: POST, OPTIONS\r\n/i)
    expect(raw.endsWith('\r\n\r\n')).toBe(true)
    expect(forwarded).toEqual([])
  })

  it('HEAD with a body announced (a GET route): answered, the body not handed over, the connection closed', async () => {
    const { handle } = kit()
    let body: ReadableStream | null | undefined
    const served = await start(async (request) => ((body = request.body), handle(request)))
    const raw = await rawExchange(served.port, 'HEAD /partner/limits HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n')
    expect(raw).toMatch(/^HTTP\/1\.1 200 /)
    expect(body).toBe(null)
  })

  it.each([
    ['a dot-segment out of basePath', 'GET /partner/../limits'],
    ['an encoded slash', 'GET /partner%2Flimits'],
    ['an encoded dot-segment out of basePath', 'GET /partner/%2e%2e/limits'],
    ['a doubled slash', 'GET //partner/limits'],
    ['a doubled slash inside', 'GET /partner//limits'],
    ['another case', 'GET /PARTNER/limits'],
    ['a backslash', 'GET /partner\\..\\limits'],
    ['an encoded path letter', 'GET /partner/limit%73'],
    ['absolute-form with a dot-segment out of basePath', 'GET http://shop.example/partner/../limits'],
  ])('%s is not a route of the kit (404 route_not_found, nothing forwarded)', async (_, line) => {
    const { handle, forwarded } = kit()
    const served = await start(handle)
    const [answer] = answers(await rawExchange(served.port, `${line} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`))
    expect([answer?.status, code(answer?.body ?? '')]).toEqual([404, 'route_not_found'])
    expect(forwarded).toEqual([])
  })

  it.each([
    ['absolute-form, another host', 'GET http://evil.example/partner/limits'],
    ['absolute-form with user info', 'GET http://user:pw@evil.example/partner/limits'],
    ['absolute-form https', 'GET HTTPS://evil.example:8443/partner/limits'],
  ])('%s: the path alone routes, the Host never travels to the service', async (_, line) => {
    const { handle, forwarded } = kit()
    const served = await start(handle)
    const [answer] = answers(await rawExchange(served.port, `${line} HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`))
    expect(answer?.status).toBe(200)
    expect(forwarded.map((url) => new URL(url).origin)).toEqual(['https://api.example'])
  })
})

describe('slow clients', () => {
  it('many concurrent slow bodies: each costs one 408, and every connection is let go', async () => {
    const { handle } = kit()
    const served = await start(handle, { bodyTimeoutMs: 100 })
    const clients = Array.from({ length: 20 }, () => client(served.port))
    await Promise.all(
      clients.map((c) =>
        c.write(
          `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nContent-Length: ${CAP}\r\n\r\n{"accountId":"`,
        ),
      ),
    )
    // They trickle on, a byte at a time, after their headers.
    for (let i = 0; i < 3; i++) await Promise.all(clients.map((c) => c.write('a')))
    const raws = await Promise.all(clients.map((c) => c.until(/\r\n\r\n\{.*\}\}/s)))
    expect(raws.map((raw) => answers(raw)[0]?.status)).toEqual(clients.map(() => 408))
    // Half-open clients never close: the server lets go of each connection itself.
    await expect.poll(() => served.connections(), { timeout: 20_000 }).toBe(0)
    for (const c of clients) c.socket.destroy()
  })

  it("a client that hangs up mid-body, many times over: no crash, no log line per hang-up beyond the handler's own", async () => {
    const { handle } = kit()
    const served = await start(handle)
    for (let i = 0; i < 20; i++) {
      const c = client(served.port)
      await c.write(`POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nContent-Length: 100\r\n\r\n{"a":`)
      c.socket.destroy()
      await c.closed
    }
    const [after] = answers(await rawExchange(served.port, 'GET /partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))
    expect(after?.status).toBe(200)
    await expect.poll(() => served.connections(), { timeout: 10_000 }).toBe(0)
  })
})
