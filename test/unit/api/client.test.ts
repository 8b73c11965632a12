import { describe, expect, it, vi } from 'vitest'
import { createApiClient, retryAfterMs } from '../../../src/api/client'
import { depositQuote, depositStatus } from '../../../src/api/schemas'
import { ApiError, NetworkError, RateLimitedError, ResponseShapeError } from '../../../src/errors/ApiError'
import { createRateLimiter } from '../../../src/rateLimit/rateLimiter'
import { createFakeClock } from '../helpers/fakeClock'

type Call = { url: string; init: RequestInit }

function fakeFetch(...answers: Array<Response | Error | (() => Response)>) {
  const calls: Call[] = []
  const fn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    const answer = answers.shift()
    if (!answer) throw new Error('no more answers')
    if (answer instanceof Error) throw answer
    return typeof answer === 'function' ? answer() : answer
  }) as unknown as typeof fetch
  return { fn, calls }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })

function setup(...answers: Array<Response | Error>) {
  const clock = createFakeClock()
  const limiter = createRateLimiter({ clock })
  const fetch = fakeFetch(...answers)
  const client = createApiClient({ apiBase: 'https://api.example/', limiter, fetch: fetch.fn })
  return { clock, limiter, fetch, client }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('api client', () => {
  it('posts JSON with exactly the given fields and parses a 200', async () => {
    const { client, fetch } = setup(json(200, { status: 'pending', txHashes: { origin: `0x${'ab'.repeat(32)}` }, extra: 1 }))
    const body = { provider: 'relay', receipt: { txHash: `0x${'1'.repeat(64)}`, logs: [] } }
    const result = await client.post('/deposit/status', body, depositStatus, 'poll')
    expect(result).toEqual({ status: 'pending', txHashes: { origin: `0x${'ab'.repeat(32)}` } })
    expect(fetch.calls).toHaveLength(1)
    const [{ url, init }] = fetch.calls as [Call]
    expect(url).toBe('https://api.example/deposit/status')
    expect(init.method).toBe('POST')
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json')
    expect(JSON.parse(init.body as string)).toEqual(body)
    expect(Object.keys(JSON.parse(init.body as string))).toEqual(['provider', 'receipt'])
  })

  it('leaves no listener on the widget’s signal once an answer is read; an abort still cancels a request in flight', async () => {
    const clock = createFakeClock()
    const widget = new AbortController()
    const added: unknown[] = []
    const removed: unknown[] = []
    const add = widget.signal.addEventListener.bind(widget.signal)
    const remove = widget.signal.removeEventListener.bind(widget.signal)
    widget.signal.addEventListener = ((type: string, l: EventListener, o?: AddEventListenerOptions) => (added.push(l), add(type, l, o))) as never
    widget.signal.removeEventListener = ((type: string, l: EventListener) => (removed.push(l), remove(type, l))) as never
    let seen: AbortSignal | undefined
    const answers = [json(200, { status: 'pending' }), json(200, { status: 'pending' })]
    const fetchFn = (async (_url: string, init: RequestInit) => {
      seen = init.signal ?? undefined
      return answers.shift()!
    }) as unknown as typeof fetch
    const client = createApiClient({ apiBase: 'https://api.example', limiter: createRateLimiter({ clock }), fetch: fetchFn, signal: widget.signal })
    await client.post('/deposit/status', {}, depositStatus, 'poll')
    await client.post('/deposit/status', {}, depositStatus, 'poll')
    expect(added).toHaveLength(2)
    expect(removed).toEqual(added)
    let started = false
    const hanging = createApiClient({
      apiBase: 'https://api.example',
      limiter: createRateLimiter({ clock }),
      fetch: ((_: string, init: RequestInit) => {
        started = true
        return new Promise((_r, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))))
      }) as never,
      signal: widget.signal,
    })
    const pending = failure(hanging.post('/deposit/status', {}, depositStatus, 'poll'))
    await vi.waitFor(() => expect(started).toBe(true))
    widget.abort()
    expect(await pending).toBeInstanceOf(NetworkError)
    expect(seen?.aborted).toBe(false)
  })

  it('turns a 400 envelope into an ApiError with code, message and status, without retrying', async () => {
    const { client, fetch, clock } = setup(json(400, { error: { code: 'no_route', message: 'no provider can route this' } }))
    const error = await failure(client.post('/deposit/quote', { amount: '1' }, depositQuote))
    expect(error).toBeInstanceOf(ApiError)
    expect(error).not.toBeInstanceOf(RateLimitedError)
    expect(error).toMatchObject({ status: 400, code: 'no_route', serverMessage: 'no provider can route this' })
    await clock.advance(60_000)
    expect(fetch.calls).toHaveLength(1)
  })

  it('retries a 429 after its Retry-After of 2 s and resolves', async () => {
    const { client, fetch, clock, limiter } = setup(
      json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'Retry-After': '2' }),
      json(200, { status: 'done', txHashes: { delivered: `0x${'dd'.repeat(32)}` } }),
    )
    let result: unknown
    void client.post('/deposit/status', {}, depositStatus, 'poll').then((r) => (result = r))
    await clock.settle()
    expect(fetch.calls).toHaveLength(1)
    expect(limiter.status().waiting).toBe(true)
    await clock.advance(1999)
    expect(fetch.calls).toHaveLength(1)
    expect(result).toBeUndefined()
    await clock.advance(1)
    expect(fetch.calls).toHaveLength(2)
    expect(result).toEqual({ status: 'done', txHashes: { delivered: `0x${'dd'.repeat(32)}` } })
    expect(limiter.status().waiting).toBe(false)
  })

  it('a 500 with a non-JSON body is an ApiError with status 500', async () => {
    const { client } = setup(new Response('<html>Bad gateway</html>', { status: 500 }))
    const error = await failure(client.post('/deposit/quote', {}, depositQuote))
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 500, code: 'internal', serverMessage: '' })
  })

  it('a 200 with a malformed body is a ResponseShapeError naming the field path', async () => {
    const { client } = setup(
      json(200, {
        provider: 'relay',
        amountIn: '1',
        amountOut: '1',
        fee: '0',
        expiresAt: '2026-11-22T12:00:00Z',
        transaction: { chainId: 8453, to: '0xnope', data: '0x', value: '0' },
      }),
    )
    const error = await failure(client.post('/deposit/quote', {}, depositQuote))
    expect(error).toBeInstanceOf(ResponseShapeError)
    expect((error as ResponseShapeError).path).toBe('transaction.to')
    expect((error as ResponseShapeError).message).toContain('/deposit/quote')
  })

  it('a 200 with a non-JSON body is a ResponseShapeError', async () => {
    const { client } = setup(new Response('ok', { status: 200 }))
    const error = await failure(client.post('/deposit/status', {}, depositStatus))
    expect(error).toBeInstanceOf(ResponseShapeError)
  })

  it('fetch throwing is a NetworkError carrying the cause', async () => {
    const cause = new TypeError('Failed to fetch')
    const { client, fetch, clock } = setup(cause)
    const error = await failure(client.post('/deposit/quote', {}, depositQuote))
    expect(error).toBeInstanceOf(NetworkError)
    expect((error as NetworkError).cause).toBe(cause)
    await clock.advance(60_000)
    expect(fetch.calls).toHaveLength(1)
  })
})

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-22T12:00:00Z')

  it('reads seconds', () => {
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs(' 5 ', now)).toBe(5000)
    expect(retryAfterMs('0', now)).toBe(0)
  })

  it('reads an HTTP date relative to now, never negative', () => {
    expect(retryAfterMs('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('Sun, 22 Nov 2026 11:59:00 GMT', now)).toBe(0)
  })

  it.each([null, '', 'soon', '2 seconds', '12abc'])('ignores %j', (header) => {
    expect(retryAfterMs(header, now)).toBeUndefined()
  })

  // Neither delay-seconds nor an HTTP-date (RFC 9110 §10.2.3), but Date.parse accepts them.
  it.each(['1.5', '-1', 'abc 1'])('ignores %j, which is neither seconds nor an HTTP date', (header) => {
    expect(retryAfterMs(header, now)).toBeUndefined()
  })
})
