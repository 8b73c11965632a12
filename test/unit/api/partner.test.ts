// Issue 12: the partner backend gets no cookies unless the partner opts in, learns its user from
// a token, and a backend that does not answer (or refuses CORS) is the shop's problem, not the buyer's.
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod/mini'
import { cardCalls } from '../../../src/api/card'
import { createPartnerHttp } from '../../../src/api/partnerHttp'
import { FieldRejected, RateLimitedError, isRetryable } from '../../../src/errors/ApiError'
import { describeError } from '../../../src/errors/describeError'
import { problemText } from '../../../src/errors/words'
import { enCard } from '../../../src/i18n/en-card'
import { addEnglish } from '../../../src/i18n/i18n'

// The card flow's strings arrive with its chunk; the partner client is only used by that flow.
addEnglish(enCard)

afterEach(() => vi.unstubAllGlobals())

const limits = { fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '10', max: '1000', environment: 'sandbox' }

function recording(answer: () => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    return answer()
  }) as unknown as typeof globalThis.fetch
  return { calls, fetch }
}

const ok = (body: unknown) => () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

describe('partner client', () => {
  it('sends no cookies and no Authorization by default', async () => {
    const { calls, fetch } = recording(ok(limits))
    const partner = cardCalls(createPartnerHttp({ base: 'https://shop.example/api/', fetch }))
    await partner.limits('EUR', 'ETH')
    await partner.kycToken(`0x${'1'.repeat(40)}`).catch(() => undefined)
    expect(calls.map((c) => c.init.credentials)).toEqual(['omit', 'omit'])
    for (const c of calls) expect(new Headers(c.init.headers).has('Authorization')).toBe(false)
    expect(calls[0]!.url).toBe('https://shop.example/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH')
  })

  it('sends the partner token as a bearer token on every call', async () => {
    const { calls, fetch } = recording(ok({ id: 'p1', status: 'pending', environment: 'sandbox' }))
    const partner = cardCalls(createPartnerHttp({ base: 'https://shop.example/api', token: 'tok-123', fetch }))
    await partner.status('p1')
    await partner.limits('EUR', 'ETH').catch(() => undefined)
    for (const c of calls) {
      expect(new Headers(c.init.headers).get('Authorization')).toBe('Bearer tok-123')
      expect(c.init.credentials).toBe('omit')
    }
    expect(new Headers(calls[0]!.init.headers).get('Content-Type')).toBe('application/json')
  })

  it('sends cookies only when the partner opts in', async () => {
    const { calls, fetch } = recording(ok(limits))
    await cardCalls(createPartnerHttp({ base: 'https://shop.example/api', cookies: true, fetch })).limits('EUR', 'ETH')
    expect(calls[0]!.init.credentials).toBe('include')
  })

  /** The error of a kycToken call whose fetch rejects, as a browser's does when CORS refuses or the network is down. */
  const unreachedKycToken = () => {
    const partner = cardCalls(
      createPartnerHttp({
        base: 'https://shop.example/api',
        fetch: (async () => {
          throw new TypeError('Failed to fetch')
        }) as unknown as typeof globalThis.fetch,
      }),
    )
    return partner.kycToken(`0x${'1'.repeat(40)}`).catch((e) => e)
  }

  it('a backend that refuses CORS (fetch rejects) is the shop’s payment service not answering, not the buyer’s connection', async () => {
    vi.stubGlobal('navigator', { onLine: true })
    const error = await unreachedKycToken()
    const text = problemText(describeError(error))
    expect(text).toMatch(/shop/i)
    expect(text).not.toMatch(/your connection/i)
  })

  it('while the browser is offline it still says to check the connection', async () => {
    vi.stubGlobal('navigator', { onLine: false })
    const error = await unreachedKycToken()
    expect(describeError(error).key).toBe('error.network')
  })
})

// Item 6 of issue 28: the partner kit (src/server) answers its own refusals with codes the service
// never sends; each reaches the buyer as words of its own, through either door to the backend.
describe("the partner kit's own codes, in the buyer's words", () => {
  const answer =
    (status: number, code: string, message = 'm') =>
    () =>
      new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'Content-Type': 'application/json' } })
  const refused = "The shop's payment service did not accept this request. Try again; if it keeps happening, tell the site you came from."
  const cases: Array<[number, string, string | RegExp]> = [
    [401, 'unauthenticated', /^Your sign-in on the site you came from has ended\. Sign in again on that site/],
    [403, 'origin_not_allowed', refused],
    [404, 'route_not_found', refused],
    [405, 'method_not_allowed', refused],
    [415, 'unsupported_media_type', refused],
    [413, 'body_too_large', refused],
    [400, 'invalid_json', refused],
    [400, 'duplicate_key', refused],
    [400, 'invalid_field', 'The service did not accept this: m'],
    [502, 'service_unreachable', 'The service had a problem. Try again in a moment.'],
    [502, 'service_refused_key', 'The service had a problem. Try again in a moment.'],
    [502, 'service_unreadable', 'The service had a problem. Try again in a moment.'],
    [500, 'kit_error', 'The service had a problem. Try again in a moment.'],
  ]

  it.each(cases)('%i %s, from the card client', async (status, code, words) => {
    const partner = cardCalls(createPartnerHttp({ base: 'https://shop.example/api', token: 't', fetch: recording(answer(status, code)).fetch }))
    const problem = describeError(await partner.kycToken(`0x${'1'.repeat(40)}`).catch((e) => e))
    expect(problem.code).toBe(code)
    if (typeof words === 'string') expect(problemText(problem)).toBe(words)
    else expect(problemText(problem)).toMatch(words)
  })

  it.each(cases)("%i %s, from the bank flows' client", async (status, code, words) => {
    const http = createPartnerHttp({ base: 'https://shop.example/api', token: 't', fetch: recording(answer(status, code)).fetch })
    const problem = describeError(await http.post('/bank/deposit/status', { id: 'bd_1' }, z.object({})).catch((e) => e))
    expect(problem.code).toBe(code)
    if (typeof words === 'string') expect(problemText(problem)).toBe(words)
    else expect(problemText(problem)).toMatch(words)
  })

  // Issue 29: over a per-user limit the kit answers 429 with its own code. Not the service's rate: waiting
  // a moment mends nothing, so it is not retried, and the buyer reads the site's limit, with what to do.
  const userLimit =
    "You have reached this site's limit for payments in a day. Nothing was started. Try again tomorrow or with a smaller amount, or contact the site."
  it.each([
    [
      'the card client',
      (fetch: typeof globalThis.fetch) => cardCalls(createPartnerHttp({ base: 'https://shop.example/api', token: 't', fetch })).kycToken(`0x${'1'.repeat(40)}`),
    ],
    [
      "the bank flows' client",
      (fetch: typeof globalThis.fetch) => createPartnerHttp({ base: 'https://shop.example/api', token: 't', fetch }).post('/bank/payout', {}, z.object({})),
    ],
  ])('429 user_limit_reached, from %s: its own words, never retried as a rate limit', async (_, call) => {
    const error = await call(recording(answer(429, 'user_limit_reached', "This user's limit is reached: at most 2 per day.")).fetch).catch((e) => e)
    expect(error).not.toBeInstanceOf(RateLimitedError)
    expect(isRetryable(error)).toBe(false)
    const problem = describeError(error)
    expect(problem).toMatchObject({ key: 'partner.userLimit', code: 'user_limit_reached' })
    expect(problemText(problem)).toBe(userLimit)
  })

  it("the service's own 429, the kit's per-user rate (user_rate_limited) and a 429 without an envelope are a rate limit, retried after Retry-After", async () => {
    const userRate = () =>
      Response.json(
        { error: { code: 'user_rate_limited', message: 'Too many requests from this user: try again in 7 s.' } },
        { status: 429, headers: { 'Retry-After': '7' } },
      )
    const held = await createPartnerHttp({ base: 'https://shop.example/api', fetch: recording(userRate).fetch })
      .get('/limits', {}, z.object({}))
      .catch((e) => e)
    expect(held).toBeInstanceOf(RateLimitedError)
    expect(held.retryAfterMs).toBe(7000)
    for (const res of [answer(429, 'rate_limited'), () => new Response('busy', { status: 429 })]) {
      const error = await createPartnerHttp({ base: 'https://shop.example/api', fetch: recording(res).fetch })
        .get('/limits', {}, z.object({}))
        .catch((e) => e)
      expect(error).toBeInstanceOf(RateLimitedError)
      expect(isRetryable(error)).toBe(true)
    }
  })

  it('a refused field is still named as one (the payout flow points at it)', async () => {
    const http = createPartnerHttp({
      base: 'https://shop.example/api',
      fetch: recording(answer(400, 'invalid_field', 'beneficiary.iban: must not be empty')).fetch,
    })
    const error = await http.post('/bank/payout', {}, z.object({})).catch((e) => e)
    expect(error).toBeInstanceOf(FieldRejected)
    expect(error.field).toBe('beneficiary.iban')
  })

  it("every code the kit answers with on its own has words (service_error keeps the service's status)", async () => {
    const { KIT_CODES } = await import('../../../src/server/handler')
    for (const code of KIT_CODES) {
      if (code === 'service_error') continue
      const status = code === 'kit_error' ? 500 : code === 'user_limit_reached' || code === 'user_rate_limited' ? 429 : 400
      const http = createPartnerHttp({ base: 'https://shop.example/api', fetch: recording(answer(status, code)).fetch })
      const problem = describeError(await http.get('/limits', {}, z.object({})).catch((e) => e))
      expect(problem.key, code).not.toBe('error.unknown')
    }
  })

  it("a code the service could send is not read as the kit's, nor a name of Object.prototype", async () => {
    for (const [status, code] of [
      [401, 'unauthorized'],
      [404, 'not_found'],
      [403, 'constructor'],
      [403, '__proto__'],
      [400, 'toString'],
    ] as const) {
      const http = createPartnerHttp({ base: 'https://shop.example/api', fetch: recording(answer(status, code)).fetch })
      const problem = describeError(await http.get('/limits', {}, z.object({})).catch((e) => e))
      expect(typeof problem.key, code).toBe('string')
      expect(problem.key, code).not.toMatch(/^partner\./)
      expect(problemText(problem), code).not.toMatch(/sign in/i)
    }
  })
})
