// createPartnerHandler with real Request objects, against the sandbox service's partner path
// (/v1/card/*, behind its key), and against upstreams that misbehave on purpose.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type PartnerHandlerOptions, type PaymentStore, createPartnerHandler, openPaymentStore } from '../../../src/server/index'
import { recordPayments } from '../helpers/paymentStore'
import { type MiniSandbox, SANDBOX_KEY, startMiniSandbox } from './miniSandbox'
import { devKey, linkWallet } from './walletKeys'

const SHOP = 'https://shop.example'
const wallet = `0x${'c'.repeat(40)}`
let sandbox: MiniSandbox
let store: PaymentStore
beforeAll(async () => {
  sandbox = await startMiniSandbox()
  store = await openPaymentStore()
  // The payments these tests read, as if user-1 had created them through the kit.
  await recordPayments(store, 'user-1', [
    ['card', 'cp_1'],
    ['card', 'x'],
    ['bankDeposit', 'bd_1'],
    ['payout', 'po_1'],
  ])
}, 60_000)
afterAll(async () => {
  await sandbox.close()
  await store.close()
})

function handler(options: Partial<PartnerHandlerOptions> = {}) {
  const lines: string[] = []
  const handle = createPartnerHandler({
    apiBase: sandbox.base,
    apiKey: SANDBOX_KEY,
    allowedOrigins: [SHOP],
    basePath: '/api',
    publicUrl: `${SHOP}/api`,
    // The token is the user's id: every request below is user-1's unless it says otherwise.
    authenticate: (token) => token,
    allowAnonymous: true,
    store,
    log: (line) => lines.push(line),
    ...options,
  })
  return { handle, lines }
}

const request = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  new Request(`https://shop.example${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { Origin: SHOP, Authorization: 'Bearer user-1', ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  })

/** Everything a browser could see of an answer: status line, every header, the body. */
async function everything(res: Response) {
  return `${res.status}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await res.text()}`
}
const corsHeaderNames = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith('access-control-'))

/** An upstream that answers what it is told, and counts what it was asked. */
function fakeUpstream(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} })
    return answer(String(url), init ?? {})
  }) as unknown as typeof globalThis.fetch
  return { fetch, calls }
}

describe('createPartnerHandler', () => {
  it('forwards a purchase to the service with the key, and answers the page with what the service answered', async () => {
    const { handle } = handler()
    const kyc = await handle(request('/api/card/kyc-token', { body: { walletAddress: wallet } }))
    expect(kyc.status).toBe(200)
    const { token, environment } = await kyc.json()
    expect(environment).toBe('sandbox')
    const purchase = await handle(
      request('/api/card/purchase', {
        body: { kycToken: token, fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: `${SHOP}/pay?flow=card` },
      }),
    )
    expect(purchase.status).toBe(200)
    const { id } = await purchase.json()
    const status = await handle(request('/api/card/status', { body: { id } }))
    expect(await status.json()).toEqual({ id, status: 'pending', environment: 'sandbox' })
    const limits = await handle(request('/api/card/limits?fiatCurrency=GBP&cryptoCurrency=ETH'))
    expect(await limits.json()).toMatchObject({ min: '15', max: '4000' })
  })

  describe('the key is never in an answer or a log line', () => {
    it('not in the success and contract-error answers of the sandbox service', async () => {
      const { handle, lines } = handler()
      const answers = await Promise.all([
        handle(request('/api/card/kyc-token', { body: { walletAddress: wallet } })),
        handle(request('/api/card/status', { body: { id: 'cp_unknown' } })), // 404 not_found
        handle(
          request('/api/card/purchase', {
            body: { kycToken: 'kyc_forged', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: `${SHOP}/` },
          }),
        ), // 400 invalid_request
        handle(request('/api/card/limits?fiatCurrency=JPY&cryptoCurrency=ETH')), // 400
        handle(request('/api/bank/deposit/status', { body: { id: 'bd_1' } })), // the sandbox has no such /v1 path: 404
      ])
      expect(answers.map((a) => a.status)).toEqual([200, 404, 400, 400, 404])
      for (const answer of answers) expect(await everything(answer)).not.toContain(SANDBOX_KEY)
      expect(lines.join('\n')).not.toContain(SANDBOX_KEY)
    })

    it('not when the service refuses the key (401 becomes 502: the buyer is not the one refused)', async () => {
      const wrongKey = 'sk_live_wrong_key_123'
      const { handle, lines } = handler({ apiKey: wrongKey })
      const res = await handle(request('/api/card/kyc-token', { body: { walletAddress: wallet } }))
      expect(res.status).toBe(502)
      const seen = await everything(res)
      expect(seen).toContain('"code":"service_refused_key"')
      expect(seen).not.toContain(wrongKey)
      const print = createHash('sha256').update(wrongKey).digest('hex').slice(0, 8)
      expect(lines).toEqual([`POST /v1/card/kyc-token: the service refused the API key with fingerprint ${print} (401)`])
    })

    it('not when an upstream echoes it back in an error, a success body, a header or a thrown error', async () => {
      const key = 'sk_live_9f8e7d6c'
      const echo = fakeUpstream((url, init) => {
        const auth = new Headers(init.headers).get('Authorization') ?? ''
        if (url.endsWith('/v1/card/status')) {
          return Response.json({ error: { code: 'invalid_request', message: `bad request with ${auth}` } }, { status: 400, headers: { 'X-Debug': auth } })
        }
        if (url.endsWith('/v1/card/kyc-token')) return Response.json({ token: 'kyc_1', environment: 'sandbox', debug: auth, escaped: `\u0073${key.slice(1)}` })
        if (url.includes('/v1/card/limits')) return new Response(`<html>proxy error for ${auth}</html>`, { status: 503 })
        throw new TypeError(`fetch failed: connect ECONNREFUSED (Authorization: ${auth})`)
      })
      const { handle, lines } = handler({ apiKey: key, fetch: echo.fetch })
      const answers = await Promise.all([
        handle(request('/api/card/status', { body: { id: 'cp_1' } })),
        handle(request('/api/card/kyc-token', { body: { walletAddress: wallet } })),
        handle(request('/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH')),
        handle(
          request('/api/card/purchase', {
            body: { kycToken: 'k', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: `${SHOP}/` },
          }),
        ),
      ])
      expect(answers.map((a) => a.status)).toEqual([400, 200, 503, 502])
      const seen = await Promise.all(answers.map(everything))
      for (const text of seen) expect(text).not.toContain(key)
      expect(seen[0]).toContain('bad request with Bearer [redacted]')
      expect(seen[1]).toContain('"debug":"Bearer [redacted]"')
      expect(seen[2]).toContain('"code":"service_error"')
      expect(seen[3]).toContain('{"error":{"code":"service_unreachable","message":"The payment service could not be reached."}}')
      expect(lines.length).toBeGreaterThan(0)
      expect(lines.join('\n')).toContain('ECONNREFUSED (Authorization: Bearer [redacted])')
      expect(lines.join('\n')).not.toContain(key)
      // The key went where it belongs: one header of each outgoing request, to the service's partner path.
      expect(echo.calls.map((c) => new Headers(c.init.headers).get('Authorization'))).toEqual(Array(4).fill(`Bearer ${key}`))
    })
  })

  it('sends nothing of the browser request upstream but the checked fields: no cookie, no partner token', async () => {
    const upstream = fakeUpstream(() => Response.json({ token: 't', environment: 'sandbox' }))
    const { handle } = handler({ fetch: upstream.fetch, authenticate: () => 'user-1' })
    await handle(request('/api/card/kyc-token', { body: { walletAddress: wallet }, headers: { Cookie: 'sid=1', Authorization: 'Bearer user-token' } }))
    const [call] = upstream.calls
    expect(call.url).toBe(`${sandbox.base}/v1/card/kyc-token`)
    expect(Object.fromEntries(new Headers(call.init.headers))).toEqual({
      accept: 'application/json',
      authorization: `Bearer ${SANDBOX_KEY}`,
      'content-type': 'application/json',
    })
    expect(call.init.body).toBe(JSON.stringify({ walletAddress: wallet }))
    expect(call.init.redirect).toBe('error')
  })

  it('serves only the partner paths: anything else is 404 route_not_found in the error envelope, and a wrong method 405 method_not_allowed', async () => {
    const upstream = fakeUpstream(() => Response.json({}))
    const { handle } = handler({ fetch: upstream.fetch })
    for (const path of [
      '/api/card/quote',
      '/api/v1/card/purchase',
      '/card/purchase',
      '/api/card/purchase/',
      '/api/deposit/quote',
      '/api/admin',
      '/api/card/kyc-token/../purchase2',
    ]) {
      const res = await handle(request(path, { body: {} }))
      expect(res.status, path).toBe(404)
      expect(await res.json()).toEqual({ error: { code: 'route_not_found', message: 'No such endpoint in the partner backend.' } })
    }
    const get = await handle(request('/api/card/purchase'))
    expect(get.status).toBe(405)
    expect(get.headers.get('Allow')).toBe('POST, OPTIONS')
    expect(await get.json()).toEqual({ error: { code: 'method_not_allowed', message: 'method: this endpoint takes POST' } })
    expect(upstream.calls).toHaveLength(0)
  })

  it('refuses a field the contract does not define with 400 invalid_field naming it, and forwards nothing', async () => {
    const upstream = fakeUpstream(() => Response.json({}))
    const { handle } = handler({ fetch: upstream.fetch })
    const cases: Array<[Request, string]> = [
      [request('/api/card/kyc-token', { body: { walletAddress: wallet, email: 'a@b.c' } }), 'email: not a field of this request'],
      [request('/api/card/status', { body: { id: 'cp_1', apiKey: 'x' } }), 'apiKey: not a field of this request'],
      [request('/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH&debug=1'), 'debug: not a field of this request'],
      [request('/api/card/limits?fiatCurrency=EUR'), 'cryptoCurrency: required'],
      [
        request('/api/card/purchase', { body: { kycToken: 't', fiatCurrency: 'EUR', fiatAmount: 50, walletAddress: wallet, returnUrl: `${SHOP}/` } }),
        'fiatAmount: must be a string',
      ],
      [
        request('/api/card/purchase', {
          body: { kycToken: 't', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: 'javascript:alert(1)' },
        }),
        'returnUrl: must be an http or https URL without a user name or password',
      ],
      [
        request('/api/card/purchase', {
          body: { kycToken: 't', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: 'https://attacker:x@shop.acme.test/done' },
        }),
        'returnUrl: must be an http or https URL without a user name or password',
      ],
      [
        request('/api/bank/deposit', { body: { accountId: 'a', walletId: 'w', fiatCurrency: 'EUR', fiatAmount: '10', reference: 'r'.repeat(65) } }),
        'reference: must be at most 64 characters',
      ],
      [
        request('/api/bank/payout/quote', {
          body: { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', cryptoAmount: '10', fiatAmount: '9' },
        }),
        'cryptoAmount: send cryptoAmount or fiatAmount, exactly one of the two',
      ],
      [
        request('/api/bank/payout', { body: { quoteId: 'q', accountId: 'a', beneficiary: { name: 'A', schema: 'bank_sepa', iban: 'DE89', extra: 1 } } }),
        'beneficiary.extra: must be a string or an object of strings',
      ],
    ]
    for (const [req, message] of cases) {
      const res = await handle(req)
      expect(res.status, message).toBe(400)
      expect(await res.json()).toEqual({ error: { code: 'invalid_field', message } })
    }
    expect(upstream.calls).toHaveLength(0)
  })

  it('refuses a body that is not one JSON object, or not sent as JSON, with codes of its own', async () => {
    const upstream = fakeUpstream(() => Response.json({}))
    const { handle } = handler({ fetch: upstream.fetch })
    const cases: Array<[Request, number, string, string]> = [
      [request('/api/card/kyc-token', { body: '[1]' }), 400, 'invalid_json', 'body: must be a JSON object'],
      [request('/api/card/kyc-token', { body: '{"walletAddress":' }), 400, 'invalid_json', 'body: not valid JSON'],
      [request('/api/card/kyc-token', { body: ' ' }), 400, 'invalid_json', 'body: required'],
      [
        request('/api/card/kyc-token', { body: { walletAddress: wallet }, headers: { 'Content-Type': 'text/plain' } }),
        415,
        'unsupported_media_type',
        'Content-Type: must be application/json',
      ],
      [
        request('/api/card/kyc-token', { body: { walletAddress: wallet }, headers: { 'Content-Length': String(17 * 1024) } }),
        413,
        'body_too_large',
        'body: at most 16 KiB',
      ],
    ]
    for (const [req, status, code, message] of cases) {
      const res = await handle(req)
      expect(res.status, message).toBe(status)
      expect(await res.json()).toEqual({ error: { code, message } })
    }
    expect(upstream.calls).toHaveLength(0)
  })

  describe('a key given twice is refused (400 duplicate_key), at any depth, however it is spelled', () => {
    const payout = (beneficiary: string) => `{"quoteId":"q","accountId":"a","beneficiary":${beneficiary}}`
    it.each([
      ['/api/card/status', '{"id":"mine","id":"victim"}', 'id'],
      ['/api/card/status', '{"i\\u0064":"mine","id":"victim"}', 'id'],
      ['/api/card/status', '{"id":"mine","\\u0069\\u0064":"victim"}', 'id'],
      ['/api/bank/payout', payout('{"name":"A","schema":"bank_sepa","iban":"DE89","iban":"DE00"}'), 'beneficiary.iban'],
      [
        '/api/bank/payout',
        payout('{"name":"A","schema":"bank_us","beneficiaryAddress":{"city":"Boston","c\\u0069ty":"Austin"}}'),
        'beneficiary.beneficiaryAddress.city',
      ],
      ['/api/bank/payout', `{"quoteId":"q","accountId":"a","beneficiary":{"name":"A","schema":"bank_sepa"},"accountId":"b"}`, 'accountId'],
    ])('%s %s', async (path, body, key) => {
      const upstream = fakeUpstream(() => Response.json({ id: 'x' }))
      const { handle } = handler({ fetch: upstream.fetch })
      const res = await handle(request(path, { body }))
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: { code: 'duplicate_key', message: `${key}: given more than once` } })
      expect(upstream.calls).toHaveLength(0)
    })

    it('in the query too', async () => {
      const upstream = fakeUpstream(() => Response.json({}))
      const { handle } = handler({ fetch: upstream.fetch })
      for (const query of ['fiatCurrency=EUR&fiatCurrency=USD&cryptoCurrency=ETH', 'fiatCurrency=EUR&fiat%43urrency=USD&cryptoCurrency=ETH']) {
        const res = await handle(request(`/api/card/limits?${query}`))
        expect(res.status, query).toBe(400)
        expect(await res.json()).toEqual({ error: { code: 'duplicate_key', message: 'fiatCurrency: given more than once' } })
      }
      expect(upstream.calls).toHaveLength(0)
    })

    it('authenticate never reads a body with a key given twice, so its ownership check and the forwarded body cannot differ', async () => {
      const upstream = fakeUpstream(() => Response.json({ id: 'bd_1', status: 'awaiting_funds' }))
      const bodies: string[] = []
      const { handle } = handler({
        fetch: upstream.fetch,
        authenticate: async (_token, req) => {
          const text = await req.text()
          bodies.push(text)
          return text.includes('"accountId":"acc_alice"') ? 'alice' : undefined
        },
      })
      const res = await handle(
        request('/api/bank/deposit', {
          body: '{"accountId":"acc_alice","walletId":"w_1","fiatCurrency":"EUR","fiatAmount":"10","accountId":"acc_bob"}',
          headers: { Authorization: 'Bearer tok_alice' },
        }),
      )
      expect(res.status).not.toBe(200)
      expect(bodies.every((text) => !text.includes('acc_bob'))).toBe(true)
      expect(upstream.calls).toHaveLength(0)
    })
  })

  it('forwards the bank deposit and payout bodies as the contract defines them', async () => {
    const upstream = fakeUpstream((url) => Response.json({ ok: true, id: url.endsWith('/v1/bank/payout') ? 'po_1' : 'bd_1' }))
    const { handle } = handler({ fetch: upstream.fetch })
    const payout = {
      quoteId: 'q_1',
      accountId: 'acc_1',
      beneficiary: { name: 'Ada', schema: 'bank_us', accountNumber: '1', routingNumber: '011000015', beneficiaryAddress: { city: 'Boston' } },
      purpose: 'rent',
      reference: 'order-1',
    }
    const sent = [
      request('/api/bank/deposit', { body: { accountId: 'acc_1', walletId: 'w_1', fiatCurrency: 'EUR', fiatAmount: '100.00', reference: 'order-1' } }),
      request('/api/bank/deposit/status', { body: { id: 'bd_1' } }),
      request('/api/bank/payout/quote', {
        body: { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '100', rail: 'sepa_instant' },
      }),
      request('/api/bank/payout', { body: payout }),
      request('/api/bank/payout/status', { body: { id: 'po_1' } }),
      request('/api/limits?currency=EUR'),
      request('/api/limits'),
      request('/api/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH&amount=50&side=buy'),
      request('/api/payment-methods'),
    ]
    for (const req of sent) expect((await handle(req)).status).toBe(200)
    expect(upstream.calls.map((c) => `${c.init.method} ${c.url.replace(sandbox.base, '')}`)).toEqual([
      'POST /v1/bank/deposit',
      'POST /v1/bank/deposit/status',
      'POST /v1/bank/payout/quote',
      'POST /v1/bank/payout',
      'POST /v1/bank/payout/status',
      'GET /v1/limits?currency=EUR',
      'GET /v1/limits',
      'GET /v1/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH&amount=50&side=buy',
      'GET /v1/payment-methods',
    ])
    // The reference is scoped to the user (scopedReference.test.ts); every other field goes as given.
    const scoped = createHash('sha256')
      .update(JSON.stringify(['user-1', 'order-1']))
      .digest('hex')
    expect(JSON.parse(String(upstream.calls[3].init.body))).toEqual({ ...payout, reference: scoped })
  })

  describe('CORS', () => {
    it('a foreign origin gets no CORS headers at all, on the preflight or the request, and nothing is forwarded', async () => {
      const upstream = fakeUpstream(() => Response.json({ token: 't', environment: 'sandbox' }))
      const { handle } = handler({ fetch: upstream.fetch })
      for (const origin of ['https://evil.example', 'https://shop.example.evil.example', 'http://shop.example', 'https://shop.example:8443', 'null']) {
        const preflight = await handle(
          request('/api/card/kyc-token', { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } }),
        )
        const post = await handle(request('/api/card/kyc-token', { body: { walletAddress: wallet }, headers: { Origin: origin } }))
        expect(corsHeaderNames(preflight), origin).toEqual([])
        expect(corsHeaderNames(post), origin).toEqual([])
        expect(post.status).toBe(403)
        expect((await post.json()).error.code).toBe('origin_not_allowed')
      }
      expect(upstream.calls).toHaveLength(0)
    })

    it('an allowed origin gets exactly its own origin, the methods and the headers incl. Authorization; no credentials by default', async () => {
      const { handle } = handler()
      const preflight = await handle(
        request('/api/card/purchase', {
          method: 'OPTIONS',
          headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' },
        }),
      )
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe(SHOP)
      expect(preflight.headers.get('Access-Control-Allow-Methods')).toBe('GET, POST, OPTIONS')
      expect(preflight.headers.get('Access-Control-Allow-Headers')).toBe('Authorization, Content-Type')
      expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBeNull()
      expect(preflight.headers.get('Vary')).toBe('Origin')
      const answer = await handle(request('/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH'))
      expect(answer.headers.get('Access-Control-Allow-Origin')).toBe(SHOP)
      expect(answer.headers.get('Access-Control-Allow-Credentials')).toBeNull()
      const error = await handle(request('/api/card/nothing'))
      expect(error.headers.get('Access-Control-Allow-Origin')).toBe(SHOP) // the page can read why it failed
    })

    it('allows credentials only when asked to', async () => {
      const { handle } = handler({ allowCredentials: true })
      const preflight = await handle(request('/api/card/status', { method: 'OPTIONS' }))
      expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBe('true')
    })

    it('serves a caller without Origin (not a browser) with no CORS headers', async () => {
      const { handle } = handler()
      const res = await handle(new Request('https://shop.example/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH'))
      expect(res.status).toBe(200)
      expect(corsHeaderNames(res)).toEqual([])
    })
  })

  describe('the partner user, by bearer token', () => {
    it('hands the token and the request to authenticate; a refusal, a throw or no token is 401 and nothing is forwarded', async () => {
      const upstream = fakeUpstream(() => Response.json({ token: 't', environment: 'sandbox' }))
      const seen: string[] = []
      const { handle, lines } = handler({
        fetch: upstream.fetch,
        authenticate: async (token, req) => {
          seen.push(`${token} ${new URL(req.url).pathname}`)
          if (token === 'throws') throw new Error(`session store down, key ${SANDBOX_KEY}`)
          if (token === 'forgot-to-return') return undefined
          return token === 'user-42' ? token : undefined
        },
      })
      const kyc = (headers: Record<string, string>) => handle(request('/api/card/kyc-token', { body: { walletAddress: wallet }, headers }))
      for (const headers of <Array<Record<string, string>>>[
        { Authorization: '' },
        { Authorization: 'Bearer user-41' },
        { Authorization: 'Bearer throws' },
        { Authorization: 'Bearer forgot-to-return' },
        { Authorization: 'Basic dXNlcjo0Mg==' },
        { Cookie: 'session=user-42', Authorization: '' },
      ]) {
        const res = await kyc(headers)
        expect(res.status).toBe(401)
        expect((await res.json()).error.code).toBe('unauthenticated')
        expect(res.headers.get('Access-Control-Allow-Origin')).toBe(SHOP)
      }
      expect(upstream.calls).toHaveLength(0)
      expect((await kyc({ Authorization: 'Bearer user-42' })).status).toBe(200)
      expect(seen).toEqual(['user-41 /api/card/kyc-token', 'throws /api/card/kyc-token', 'forgot-to-return /api/card/kyc-token', 'user-42 /api/card/kyc-token'])
      expect(lines.join('\n')).toContain('authenticate threw')
      expect(lines.join('\n')).not.toContain(SANDBOX_KEY)
    })
  })

  it("never writes the buyer's token to the log, even when authenticate's error quotes it", async () => {
    const secret = 'eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbi1vZi1ib2I.sig'
    const { handle, lines } = handler({
      authenticate: (token) => {
        throw new Error(`jwt expired: ${token}`)
      },
    })
    const res = await handle(request('/api/card/kyc-token', { body: { walletAddress: wallet }, headers: { Authorization: `Bearer ${secret}` } }))
    expect(res.status).toBe(401)
    expect(lines).toEqual(['authenticate threw: Error: jwt expired: [redacted]'])
  })

  it('passes a 429 through with its Retry-After, and a network failure becomes 502 service_unreachable', async () => {
    const limited = fakeUpstream(() =>
      Response.json({ error: { code: 'rate_limited', message: 'Slow down.' } }, { status: 429, headers: { 'Retry-After': '3' } }),
    )
    const res = await handler({ fetch: limited.fetch }).handle(request('/api/card/status', { body: { id: 'cp_1' } }))
    expect(res.status).toBe(429)
    expect(res.headers.get('Retry-After')).toBe('3')
    expect(await res.json()).toEqual({ error: { code: 'rate_limited', message: 'Slow down.' } })

    const down = handler({ apiBase: 'http://127.0.0.1:9' }) // nothing listens on the discard port
    const unreachable = await down.handle(request('/api/card/status', { body: { id: 'cp_1' } }))
    expect(unreachable.status).toBe(502)
    expect(await unreachable.json()).toEqual({ error: { code: 'service_unreachable', message: 'The payment service could not be reached.' } })
    expect(down.lines[0]).toMatch(/^POST \/v1\/card\/status: the service could not be reached/)
  })

  describe('Retry-After is passed back only as delta-seconds or an IMF-fixdate (RFC 9110), anything else dropped', () => {
    /** An upstream answer with any header value at all, as a raw socket could send it (the Headers class would refuse some). */
    const answerWith = (value: string, status = 429) =>
      fakeUpstream(
        () =>
          ({
            status,
            ok: false,
            headers: { get: (name: string) => (name.toLowerCase() === 'retry-after' ? value : null) },
            text: async () => JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down.' } }),
          }) as unknown as Response,
      )
    const retryAfter = async (value: string, status?: number) => {
      const res = await handler({ fetch: answerWith(value, status).fetch }).handle(request('/api/card/status', { body: { id: 'cp_1' } }))
      return { status: res.status, header: res.headers.get('Retry-After'), names: [...res.headers.keys()] }
    }

    it.each(['0', '3', '120', '86400', 'Wed, 21 Oct 2015 07:28:00 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT', 'Thu, 29 Feb 2024 23:59:59 GMT'])(
      '%j passes',
      async (value) => {
        expect(await retryAfter(value)).toMatchObject({ status: 429, header: value })
      },
    )

    it.each([
      '3\r\nSet-Cookie: session=attacker',
      '3\nX-Injected: 1',
      '3\r',
      'Wed, 21 Oct 2015 07:28:00 GMT\r\nLocation: https://evil.example',
      '-1',
      '1.5',
      '+3',
      '3 ',
      ' 3',
      '3, 4',
      '0x10',
      '1e3',
      '٣',
      '99999999999',
      'soon',
      '',
      'Wed, 21 Oct 2015 07:28:00 UTC',
      'Wednesday, 21-Oct-15 07:28:00 GMT',
      'Wed Oct 21 07:28:00 2015',
      'Wed, 21 Oct 2015 07:28 GMT',
      'Wed, 1 Oct 2015 07:28:00 GMT',
      'wed, 21 oct 2015 07:28:00 gmt',
      'Thu, 21 Oct 2015 07:28:00 GMT',
      'Wed, 31 Feb 2015 07:28:00 GMT',
      'Wed, 21 Oct 2015 25:28:00 GMT',
      'Wed, 21 Oct 2015 07:28:00 GMT<script>',
      '2015-10-21T07:28:00Z',
    ])('%j is dropped, the answer otherwise the same', async (value) => {
      const seen = await retryAfter(value)
      expect(seen.status).toBe(429)
      expect(seen.header).toBeNull()
      expect(seen.names).not.toContain('set-cookie')
      expect(seen.names).not.toContain('x-injected')
      expect(seen.names).not.toContain('location')
    })

    it('also on a 503 that says when to come back', async () => {
      expect(await retryAfter('30', 503)).toMatchObject({ status: 503, header: '30' })
      expect(await retryAfter('30\r\nX-Injected: 1', 503)).toMatchObject({ status: 503, header: null })
    })
  })

  describe("the kit's own answers carry codes of their own, never one of the service's", () => {
    // A chain's RPC that knows one transaction (a token transfer out of a wallet nobody linked), and no other.
    let rpc: { url: string; close: () => void }
    const unlinkedTx = `0x${'cd'.repeat(32)}`
    const sender = `0x${'5'.repeat(40)}`
    const receipt = {
      transactionHash: unlinkedTx,
      transactionIndex: '0x0',
      blockHash: `0x${'11'.repeat(32)}`,
      blockNumber: '0x1',
      from: sender,
      to: `0x${'6'.repeat(40)}`,
      cumulativeGasUsed: '0x1',
      gasUsed: '0x1',
      effectiveGasPrice: '0x1',
      contractAddress: null,
      logsBloom: `0x${'0'.repeat(512)}`,
      status: '0x1',
      type: '0x2',
      logs: [
        {
          address: `0x${'6'.repeat(40)}`,
          data: '0x',
          blockHash: `0x${'11'.repeat(32)}`,
          blockNumber: '0x1',
          transactionHash: unlinkedTx,
          transactionIndex: '0x0',
          logIndex: '0x0',
          removed: false,
          topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', `0x${sender.slice(2).padStart(64, '0')}`, `0x${'7'.repeat(64)}`],
        },
      ],
    }
    // A transfer of 1 base unit into a deposit address the kit gave user-1 for 2 (POST /deposit/address).
    const quotedTx = `0x${'ce'.repeat(32)}`
    const depositAddress = `0x${'7'.repeat(40)}`
    const quotedReceipt = {
      ...receipt,
      transactionHash: quotedTx,
      blockNumber: '0x9',
      logs: [{ ...receipt.logs[0], transactionHash: quotedTx, blockNumber: '0x9', data: `0x${'1'.padStart(64, '0')}` }],
    }
    beforeAll(async () => {
      await store.recordDepositAddress({ chainId: 31337, address: depositAddress, userId: 'user-1', token: `0x${'6'.repeat(40)}`, units: '2', fromBlock: '1' })
      await store.bindAccount('someone-else', 'acc_taken')
      await store.bindAddress('someone-else', devKey(9).address)
      const server = createServer((req, res) => {
        let body = ''
        req.on('data', (chunk) => (body += chunk))
        req.on('end', () => {
          const { id, method, params } = JSON.parse(body)
          const result =
            method === 'eth_chainId'
              ? '0x7a69'
              : method === 'eth_blockNumber'
                ? '0x5'
                : method === 'eth_getTransactionReceipt' && params[0] === unlinkedTx
                  ? receipt
                  : method === 'eth_getTransactionReceipt' && params[0] === quotedTx
                    ? quotedReceipt
                    : null
          res.setHeader('Content-Type', 'application/json')
          res.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
        })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      rpc = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
    })
    afterAll(() => rpc.close())

    // The contract's codes (../shared/spec/partner-api.md, "Errors"): a partner reading its logs
    // must tell what the kit refused from what the service answered.
    const SERVICE_CODES = [
      'invalid_request',
      'no_route',
      'unauthorized',
      'permission_denied',
      'chain_not_allowed',
      'account_not_found',
      'not_found',
      'quote_expired',
      'requires_action',
      'rate_limited',
      'not_implemented',
      'upstream_error',
      'internal',
    ]

    async function kitAnswers() {
      const seen: Array<{ status: number; code: string }> = []
      const note = async (res: Response) => seen.push({ status: res.status, code: (await res.json()).error.code })
      const quiet = fakeUpstream(() => Response.json({}))
      const { handle } = handler({ fetch: quiet.fetch, authenticate: (token) => (token === 'good' ? 'user-1' : undefined) })
      const good = { Authorization: 'Bearer good' }
      await note(await handle(request('/api/card/status', { body: { id: 'x' }, headers: { ...good, Origin: 'https://evil.example' } })))
      await note(await handle(request('/api/nothing', { body: { id: 'x' }, headers: good })))
      await note(await handle(request('/api/card/status', { headers: good })))
      await note(await handle(request('/api/card/status', { body: { id: 'x' }, headers: { Authorization: '' } })))
      await note(await handle(request('/api/card/status', { body: { id: 'x' }, headers: { Authorization: 'Bearer bad' } })))
      await note(await handle(request('/api/card/status', { body: { id: 'x' }, headers: { ...good, 'Content-Type': 'text/plain' } })))
      await note(await handle(request('/api/card/status', { body: { id: 'x' }, headers: { ...good, 'Content-Length': '20000' } })))
      await note(await handle(request('/api/card/status', { body: '{"id":', headers: good })))
      await note(await handle(request('/api/card/status', { body: '{"id":"a","id":"b"}', headers: good })))
      await note(await handle(request('/api/card/status', { body: { id: 'x', extra: 1 }, headers: good })))
      // A body that breaks while it is read (the connection reset): the kit's own failure.
      const broken = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error('connection reset')) })
      await note(
        await handle(
          new Request('https://shop.example/api/card/status', {
            method: 'POST',
            headers: { ...good, Origin: SHOP, 'Content-Type': 'application/json' },
            body: broken,
            duplex: 'half',
          } as RequestInit),
        ),
      )
      // The service: unreachable, refusing the key, unreadable, an error without the envelope, an envelope with a code the kit keeps for itself.
      const upstreams: Array<() => Response> = [
        () => {
          throw new TypeError('fetch failed')
        },
        () => Response.json({ error: { code: 'unauthorized', message: 'Missing, malformed or unknown key.' } }, { status: 401 }),
        () => new Response('<html>ok</html>', { status: 200 }),
        () => new Response('<html>Bad gateway</html>', { status: 404 }),
        () => Response.json({ error: { code: 'unauthenticated', message: 'Sign in again.' } }, { status: 401 + 2 }),
      ]
      for (const answer of upstreams) {
        const { handle: behind } = handler({ fetch: fakeUpstream(answer).fetch, authenticate: (token) => (token === 'good' ? 'user-1' : undefined) })
        await note(await behind(request('/api/card/status', { body: { id: 'x' }, headers: good })))
      }
      // Ownership, limits and the crypto deposit's chain: refused before anything reaches the service.
      const owned = handler({
        fetch: quiet.fetch,
        authenticate: (token) => (token === 'good' ? 'user-1' : undefined),
        userLimits: { card: { perDay: 0 } },
        chains: { 1: { rpcUrl: 'http://127.0.0.1:9' }, 31337: { rpcUrl: rpc.url } },
      }).handle
      const tx = `0x${'ab'.repeat(32)}`
      await note(await owned(request('/api/card/status', { body: { id: 'cp_nobody' }, headers: good })))
      await note(
        await owned(request('/api/bank/deposit', { body: { accountId: 'acc_taken', walletId: 'w_t', fiatCurrency: 'EUR', fiatAmount: '10' }, headers: good })),
      )
      await note(
        await owned(
          request('/api/card/purchase', {
            body: { kycToken: 'k', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: `${SHOP}/` },
            headers: good,
          }),
        ),
      )
      // One user's own rate at the kit (userRate, here one request in 30 s): spent, 429 before the service is asked.
      const { handle: rated } = handler({
        fetch: quiet.fetch,
        authenticate: (token) => (token === 'good' ? 'user-1' : undefined),
        userRate: { requestsPerMinute: 2 },
      })
      // (A request the kit refuses counts too: the first spends the rate, and nothing reaches the service.)
      await rated(request('/api/card/status', { body: { id: 'x', extra: 1 }, headers: good }))
      await note(await rated(request('/api/card/status', { body: { id: 'x' }, headers: good })))
      await note(await owned(request('/api/deposit/sent', { body: { provider: 'p', txHash: tx, chainId: 10 }, headers: good })))
      await note(await owned(request('/api/deposit/sent', { body: { provider: 'p', txHash: tx, chainId: 1 }, headers: good })))
      await note(await owned(request('/api/deposit/sent', { body: { provider: 'p', txHash: tx, chainId: 31337 }, headers: good })))
      // The wallet link: a sender nobody linked, a message the kit never gave, a wallet another user linked.
      await note(await owned(request('/api/deposit/sent', { body: { provider: 'p', txHash: unlinkedTx, chainId: 31337 }, headers: good })))
      const post = async (path: string, body: unknown) => {
        const res = await owned(request(`/api${path}`, { body, headers: good }))
        return { status: res.status, body: await res.clone().json(), res }
      }
      const message = (await post('/deposit/wallet', { address: devKey(8).address, chainId: 31337 })).body.message.replace(
        /Nonce: \w+/,
        'Nonce: 0123456789abcdef',
      )
      await note((await post('/deposit/wallet/link', { message, signature: await devKey(8).signMessage({ message }) })).res)
      await note((await linkWallet(post, 9, 31337)).res)
      // Paid by address: into user-1's deposit address, not as quoted; and that address given by the service to user-2.
      await note(await owned(request('/api/deposit/sent', { body: { provider: 'p', txHash: quotedTx, chainId: 31337 }, headers: good })))
      const sameAddress = fakeUpstream(() =>
        Response.json({
          provider: 'p',
          amountIn: '1',
          amountOut: '1',
          fee: '0',
          expiresAt: '2030-01-01T00:00:00Z',
          transaction: { chainId: 31337, to: `0x${'6'.repeat(40)}`, data: `0xa9059cbb${'7'.repeat(40).padStart(64, '0')}${'2'.padStart(64, '0')}`, value: '0' },
        }),
      )
      const second = handler({
        fetch: sameAddress.fetch,
        authenticate: (token) => (token === 'good' ? 'user-2' : undefined),
        chains: { 31337: { rpcUrl: rpc.url } },
        depositDestination: { chainId: 42161, token: `0x${'6'.repeat(40)}`, address: `0x${'d'.repeat(40)}` },
      })
      const source = { chainId: 31337, token: `0x${'6'.repeat(40)}`, address: wallet }
      await note(await second.handle(request('/api/deposit/address', { body: { source, amount: '1', method: 'crypto' }, headers: good })))
      // The service names the partner's own address (where its deposits settle) as the deposit address.
      const own = handler({
        fetch: sameAddress.fetch,
        authenticate: (token) => (token === 'good' ? 'user-2' : undefined),
        chains: { 31337: { rpcUrl: rpc.url } },
        depositDestination: { chainId: 42161, token: `0x${'6'.repeat(40)}`, address: `0x${'7'.repeat(40)}` },
      })
      await note(await own.handle(request('/api/deposit/address', { body: { source, amount: '1', method: 'crypto' }, headers: good })))
      // Paid by address: a kit that sets no depositDestination, and a destination not the partner's.
      await note(await owned(request('/api/deposit/address', { body: { source, amount: '1', method: 'crypto' }, headers: good })))
      const treasury = handler({
        authenticate: (token) => (token === 'good' ? 'user-2' : undefined),
        chains: { 31337: { rpcUrl: rpc.url } },
        depositDestination: { chainId: 42161, token: `0x${'6'.repeat(40)}`, address: `0x${'d'.repeat(40)}` },
      })
      await note(
        await treasury.handle(
          request('/api/deposit/address', { body: { source, amount: '1', method: 'crypto', destination: { ...source, chainId: 42161 } }, headers: good }),
        ),
      )
      expect(quiet.calls).toHaveLength(0)
      return seen
    }

    it('each refusal and failure of its own has its code and status', async () => {
      expect(await kitAnswers()).toEqual([
        { status: 403, code: 'origin_not_allowed' },
        { status: 404, code: 'route_not_found' },
        { status: 405, code: 'method_not_allowed' },
        { status: 401, code: 'unauthenticated' },
        { status: 401, code: 'unauthenticated' },
        { status: 415, code: 'unsupported_media_type' },
        { status: 413, code: 'body_too_large' },
        { status: 400, code: 'invalid_json' },
        { status: 400, code: 'duplicate_key' },
        { status: 400, code: 'invalid_field' },
        { status: 500, code: 'kit_error' },
        { status: 502, code: 'service_unreachable' },
        { status: 502, code: 'service_refused_key' },
        { status: 502, code: 'service_unreadable' },
        { status: 404, code: 'service_error' },
        { status: 403, code: 'service_error' },
        { status: 404, code: 'payment_not_found' },
        { status: 403, code: 'account_not_owned' },
        { status: 429, code: 'user_limit_reached' },
        { status: 429, code: 'user_rate_limited' },
        { status: 400, code: 'chain_not_configured' },
        { status: 502, code: 'chain_unreachable' },
        { status: 422, code: 'deposit_unverified' },
        { status: 403, code: 'wallet_not_linked' },
        { status: 422, code: 'wallet_unverified' },
        { status: 409, code: 'wallet_not_owned' },
        { status: 422, code: 'deposit_not_as_quoted' },
        { status: 409, code: 'deposit_address_taken' },
        { status: 502, code: 'deposit_address_refused' },
        { status: 400, code: 'destination_not_configured' },
        { status: 400, code: 'destination_not_allowed' },
      ])
    })

    it("none is a code of the service's, and each is in docs/partner-kit.md's table of the kit's codes", async () => {
      const codes = [...new Set((await kitAnswers()).map((a) => a.code))]
      expect(codes.filter((code) => SERVICE_CODES.includes(code))).toEqual([])
      const doc = readFileSync('docs/partner-kit.md', 'utf8')
      const kit = doc.slice(doc.indexOf("## The kit's own codes"), doc.indexOf('\n## ', doc.indexOf("## The kit's own codes") + 1))
      // Rows "| 403 | `origin_not_allowed` | …": the code and the status it is answered with.
      const rows = new Map([...kit.matchAll(/^\| ([^|]+?) \| `([a-z_]+)` \|/gm)].map((m) => [m[2], m[1]]))
      for (const { status, code } of await kitAnswers()) expect(rows.get(code), code).toBe(code === 'service_error' ? '4xx, 5xx' : String(status))
      // And the two the Node adapter answers before the handler sees a request (node.test.ts provokes each).
      const adapter = { request_timeout: '408', bad_request: '400' }
      for (const [code, status] of Object.entries(adapter)) expect(rows.get(code), code).toBe(status)
      expect([...rows.keys()].sort()).toEqual([...codes, ...Object.keys(adapter)].sort())
    })
  })

  it("authenticate can read the body, to check that the account it acts on is its user's", async () => {
    const upstream = fakeUpstream(() => Response.json({ id: 'bd_alice', status: 'awaiting_funds' }))
    const owner = new Map([['tok_alice', 'acc_alice']])
    const { handle } = handler({
      fetch: upstream.fetch,
      authenticate: async (token, req) => (owner.get(token) === ((await req.json()) as { accountId?: string }).accountId ? 'alice' : undefined),
    })
    const deposit = (accountId: string) =>
      handle(
        request('/api/bank/deposit', {
          body: { accountId, walletId: 'w_alice', fiatCurrency: 'EUR', fiatAmount: '10' },
          headers: { Authorization: 'Bearer tok_alice' },
        }),
      )
    expect((await deposit('acc_alice')).status).toBe(200)
    expect((await deposit('acc_bob')).status).toBe(401)
    expect(upstream.calls).toHaveLength(1)
    expect(JSON.parse(String(upstream.calls[0].init.body)).accountId).toBe('acc_alice')
  })

  it('stops reading a body without Content-Length soon after 16 KiB (413)', async () => {
    const upstream = fakeUpstream(() => Response.json({}))
    const { handle } = handler({ fetch: upstream.fetch })
    let pulled = 0
    const chunk = new Uint8Array(64 * 1024).fill(0x20)
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.length
        if (pulled > 32 * 1024 * 1024) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const res = await handle(
      new Request('https://shop.example/api/card/kyc-token', {
        method: 'POST',
        headers: { Origin: SHOP, Authorization: 'Bearer user-1', 'Content-Type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
    )
    expect(res.status).toBe(413)
    expect(pulled).toBeLessThan(1024 * 1024)
    expect(upstream.calls).toHaveLength(0)
  })

  it('will not start without authenticate unless told to serve anyone (allowAnonymous)', () => {
    const base = { apiBase: 'https://api.example', apiKey: 'sk_x', allowedOrigins: [SHOP] }
    expect(() => createPartnerHandler(base)).toThrow(/authenticate is required/)
    expect(() => createPartnerHandler({ ...base, allowAnonymous: true })).not.toThrow()
    expect(() => createPartnerHandler({ ...base, authenticate: () => 'user-1' })).not.toThrow()
  })

  it('refuses options that would make it unsafe, without echoing the key', () => {
    const base = { apiBase: 'https://api.example', apiKey: 'sk_x', allowedOrigins: [SHOP], allowAnonymous: true }
    expect(() => createPartnerHandler({ ...base, allowedOrigins: ['*'] })).toThrow(/allowedOrigins/)
    expect(() => createPartnerHandler({ ...base, allowedOrigins: ['https://shop.example/'] })).toThrow(/allowedOrigins/)
    expect(() => createPartnerHandler({ ...base, apiBase: 'ftp://api.example' })).toThrow(/apiBase/)
    expect(() => createPartnerHandler({ ...base, apiKey: 'sk_x\r\nX-Injected: 1' })).toThrow(/^createPartnerHandler: apiKey must be/)
    expect(() => createPartnerHandler({ ...base, apiKey: 'sk_x\r\nX-Injected: 1' })).not.toThrow(/sk_x/)
    // The wallet-link message names the kit by publicUrl, never by a request's URL (a Host header anyone sets).
    const chains = { 1: { rpcUrl: 'https://rpc.example' } }
    expect(() => createPartnerHandler({ ...base, chains })).toThrow(/^createPartnerHandler: publicUrl is required with chains/)
    for (const publicUrl of [
      '/api',
      'ftp://shop.example/api',
      'https://shop.example/api?kit=b',
      'https://shop.example/api#b',
      'https://me:pw@shop.example/api',
    ]) {
      expect(() => createPartnerHandler({ ...base, chains, publicUrl })).toThrow(/^createPartnerHandler: publicUrl must be/)
    }
    expect(() => createPartnerHandler({ ...base, chains, publicUrl: `${SHOP}/api` })).not.toThrow()
  })

  it('checks depositDestination at start: the partner decides where the deposits it credits settle, in a form the kit can compare', () => {
    const base = { apiBase: 'https://api.example', apiKey: 'sk_x', allowedOrigins: [SHOP], allowAnonymous: true }
    const good = { chainId: 42161, token: `0x${'a'.repeat(40)}`, address: `0x${'b'.repeat(40)}` }
    for (const depositDestination of [
      null,
      'https://treasury.example',
      {},
      { ...good, chainId: 0 },
      { ...good, chainId: 1.5 },
      { ...good, chainId: '42161' },
      { ...good, token: 'USDC' },
      { ...good, address: `0x${'b'.repeat(39)}` },
      { ...good, address: `0x${'0'.repeat(40)}` },
      { ...good, memo: 'x' },
    ]) {
      expect(() => createPartnerHandler({ ...base, depositDestination: depositDestination as never }), JSON.stringify(depositDestination)).toThrow(
        /^createPartnerHandler: depositDestination must be/,
      )
    }
    expect(() => createPartnerHandler({ ...base, depositDestination: good })).not.toThrow()
    expect(() => createPartnerHandler({ ...base, depositDestination: () => good })).not.toThrow()
  })
})
