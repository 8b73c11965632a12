// @vitest-environment node
// createNodeListener when a request is refused before its body is read: the answer closes the
// connection, nothing more is read off it, and no request pipelined behind it reaches the handler
// or the service (a refusal costs one answer). With `Expect: 100-continue`, a body is invited only
// when the handler reads it. Raw sockets, the kit on a fake service; no timed assertion: "nothing
// more happened" is checked after round trips on other connections, which let the server read
// whatever it would.
import { afterEach, describe, expect, it } from 'vitest'
import { type FetchHandler, type NodeListenerOptions, createNodeListener } from '../../../src/server/node'
import { answers, client, code, type Listening, listen, rawExchange, recordingKit } from '../helpers/httpAttacks'

const KiB = 1024
const MiB = 1024 * KiB
const CAP = 16 * KiB
const JSON_TYPE = 'Content-Type: application/json'
const ANSWER = /\r\n\r\n\{.*\}\}/s

const running: Listening[] = []
afterEach(() => {
  for (const served of running.splice(0)) served.close()
})

/** The listener on a server; `seen`: each request the handler got, as `METHOD /path`. */
async function serve(handle: FetchHandler, options: NodeListenerOptions = {}) {
  const seen: string[] = []
  const listener = createNodeListener((request) => (seen.push(`${request.method} ${new URL(request.url).pathname}`), handle(request)), {
    log: () => {},
    ...options,
  })
  const served = await listen(listener)
  running.push(served)
  // Round trips on fresh connections: the server's loop has read, parsed and handed over whatever
  // the connection under test would let it, and the kit has forwarded what it would (a GET of the
  // limits reaches the fake service within a round trip of its own).
  const settle = async () => {
    for (let i = 0; i < 2; i++) await rawExchange(served.port, 'GET /partner/limits HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')
  }
  const PROBES = ['GET /partner/limits', 'GET /partner/limits']
  return { ...served, seen, settle, PROBES }
}

const kit = recordingKit

describe('a request refused before its body is read closes its connection', () => {
  const post = (path: string, lines: string, size: number) => `POST ${path} HTTP/1.1\r\nHost: a\r\n${lines}Content-Length: ${size}\r\n\r\n`
  const cases: Array<[string, (size: number) => string, number, string]> = [
    [
      '415 (a body the kit never reads)',
      (size) => post('/partner/bank/deposit', 'Content-Type: text/plain\r\nAuthorization: Bearer alice\r\n', size),
      415,
      'unsupported_media_type',
    ],
    ['401 (no user, Content-Length over the cap)', (size) => post('/partner/bank/deposit', `${JSON_TYPE}\r\n`, size), 401, 'unauthenticated'],
    [
      '413 (Content-Length over the cap)',
      (size) => post('/partner/bank/deposit', `${JSON_TYPE}\r\nAuthorization: Bearer alice\r\n`, size),
      413,
      'body_too_large',
    ],
    ['404 (no such route)', (size) => post('/partner/nothing', `${JSON_TYPE}\r\nAuthorization: Bearer alice\r\n`, size), 404, 'route_not_found'],
    ['403 (another origin)', (size) => post('/partner/bank/deposit', `Origin: https://evil.example\r\n${JSON_TYPE}\r\n`, size), 403, 'origin_not_allowed'],
  ]
  it.each(cases)('after %s: the rest of the body and a request behind it are never read', async (_, head, status, errorCode) => {
    const { handle, forwarded } = kit()
    const served = await serve(handle)
    const size = 20 * KiB
    const c = client(served.port)
    await c.write(head(size))
    await c.write('{"a":')
    const [answer] = answers(await c.until(ANSWER))
    expect([answer?.status, code(answer?.body ?? ''), answer?.headers.connection]).toEqual([status, errorCode, 'close'])
    // The rest of the body, then a request the kit would serve (and forward with the key).
    await c.write(Buffer.alloc(size - 5, 'a'))
    await c.write('GET /partner/limits HTTP/1.1\r\nHost: a\r\n\r\n')
    await served.settle()
    expect(served.seen.slice(1)).toEqual(served.PROBES)
    expect(forwarded.length).toBe(served.PROBES.length)
    expect(answers(c.raw()).length).toBe(1)
    c.socket.destroy()
  })

  it('after 408: the rest of the body and a request behind it are never read', async () => {
    const { handle, forwarded } = kit()
    const served = await serve(handle, { bodyTimeoutMs: 100 })
    const c = client(served.port)
    await c.write(`POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nContent-Length: 100\r\n\r\n{"a":`)
    expect(answers(await c.until(ANSWER))[0]?.status).toBe(408)
    await c.write(`"${'b'.repeat(100 - 8)}"}`)
    await c.write('GET /partner/limits HTTP/1.1\r\nHost: a\r\n\r\n')
    await served.settle()
    expect(served.seen.slice(1)).toEqual(served.PROBES)
    expect(forwarded.length).toBe(served.PROBES.length)
    c.socket.destroy()
  })

  it('after a chunked body refused at the cap (16 KiB + 1 read): the rest and a request behind it are never read', async () => {
    const { handle, forwarded } = kit()
    const served = await serve(handle)
    const c = client(served.port)
    await c.write(`POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nTransfer-Encoding: chunked\r\n\r\n`)
    await c.write(`${(CAP + 100).toString(16)}\r\n${'a'.repeat(CAP + 100)}`)
    expect(answers(await c.until(ANSWER))[0]?.status).toBe(413)
    await c.write('\r\n0\r\n\r\nGET /partner/limits HTTP/1.1\r\nHost: a\r\n\r\n')
    await served.settle()
    expect(served.seen.slice(1)).toEqual(served.PROBES)
    expect(forwarded.length).toBe(served.PROBES.length)
    c.socket.destroy()
  })

  it('a refusal costs one answer: fifty requests pipelined behind it reach neither the handler nor the service', async () => {
    const { handle, forwarded } = kit()
    const served = await serve(handle)
    const c = client(served.port)
    await c.write(`POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n{"a":`)
    await c.until(ANSWER)
    await c.write(Buffer.concat([Buffer.alloc(95, 'a'), Buffer.from('GET /partner/limits HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(50))]))
    await served.settle()
    expect({ seen: served.seen.length, forwarded: forwarded.length, answers: answers(c.raw()).length }).toEqual({
      seen: 1 + served.PROBES.length,
      forwarded: served.PROBES.length,
      answers: 1,
    })
    c.socket.destroy()
  })

  it('a client uploading on after the refusal: what it sends is left unread', async () => {
    const { handle } = kit()
    const served = await serve(handle)
    const c = client(served.port)
    await c.write(
      `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nAuthorization: Bearer alice\r\nContent-Length: ${64 * MiB}\r\n\r\nx`,
    )
    await c.until(ANSWER)
    const before = served.bytesRead()
    // 8 MiB handed to the client's socket at once, as a browser mid-upload would send them.
    for (let i = 0; i < 128; i++) c.socket.write(Buffer.alloc(64 * KiB, 'a'))
    await served.settle()
    await served.settle()
    // The kernel's buffers take some; a server draining the body reads them all.
    expect(served.bytesRead() - before).toBeLessThan(1 * MiB)
    c.socket.destroy()
  })
})

describe("Expect: 100-continue, through the listener's checkContinue", () => {
  it('a body announced over the cap: 413 at once, no 100 Continue, the handler not called', async () => {
    const { handle } = kit()
    const served = await serve(handle)
    const c = client(served.port)
    await c.write(
      `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\n${JSON_TYPE}\r\nAuthorization: Bearer alice\r\nContent-Length: ${64 * MiB}\r\nExpect: 100-continue\r\n\r\n`,
    )
    const raw = await c.until(ANSWER)
    expect(answers(raw).map((a) => [a.status, code(a.body)])).toEqual([[413, 'body_too_large']])
    expect(served.seen).toEqual([])
    c.socket.destroy()
  })

  it('a body the kit refuses unread (415): no 100 Continue before the refusal', async () => {
    const { handle } = kit()
    const served = await serve(handle)
    const c = client(served.port)
    await c.write(
      `POST /partner/bank/deposit HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nAuthorization: Bearer alice\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`,
    )
    const raw = await c.until(ANSWER)
    expect(answers(raw).map((a) => a.status)).toEqual([415])
    c.socket.destroy()
  })

  it('a body the handler reads: 100 Continue once it asks, then its answer', async () => {
    const served = await serve(async (request) => new Response(`got ${(await request.text()).length}`))
    const c = client(served.port)
    await c.write('POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n')
    await c.until(/^HTTP\/1\.1 100 Continue\r\n\r\n/)
    await c.write('hello')
    const raw = await c.until(/got 5$/)
    expect(answers(raw).map((a) => [a.status, a.body])).toEqual([
      [100, ''],
      [200, 'got 5'],
    ])
    c.socket.destroy()
  })
})
