// @vitest-environment node
// Hostile requests: NUL characters and lone surrogates anywhere a client can put them
// (body keys and values at any depth, query names and values, headers, the path). Each is one
// answer (400, or 404/401/403 where the kit refuses first), never 500, never a log line, never a
// request to the service, never a row. Each test FAILS if the attack gets further.
import { afterEach, describe, expect, it } from 'vitest'
import { createPartnerHandler, type PaymentStore } from '../../../../src/server/index'
import { KIT_BASICS, answers, exchange, serve, type Served } from './net'
import { paymentStoreForFile } from '../../helpers/paymentStore'

let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

function kit() {
  const lines: string[] = []
  const forwarded: string[] = []
  const handle = createPartnerHandler({
    ...KIT_BASICS,
    allowAnonymous: true,
    store,
    chains: { 8453: { rpcUrl: 'https://rpc.example' } },
    publicUrl: 'https://shop.example/partner',
    fetch: (async (input: string | URL) => {
      forwarded.push(String(input))
      return Response.json({ id: 'x', status: 'pending', limits: [] })
    }) as unknown as typeof fetch,
    log: (line) => lines.push(line),
  })
  return { handle, lines, forwarded }
}

const raw = (handle: (r: Request) => Promise<Response>, path: string, text: string) =>
  handle(
    new Request(`http://localhost/partner${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer alice' },
      body: text,
    }),
  )

const BENEFICIARY = '"name":"A","schema":"bank_sepa"'
const BODIES: Array<[string, string, string]> = [
  ['a NUL in a value', '/bank/deposit', '{"accountId":"acc\\u0000","walletId":"w","fiatCurrency":"EUR","fiatAmount":"1"}'],
  ['a NUL as a key', '/bank/deposit', '{"\\u0000":"x","accountId":"a","walletId":"w","fiatCurrency":"EUR","fiatAmount":"1"}'],
  ['a NUL in a nested key', '/bank/payout', `{"quoteId":"q","accountId":"a","beneficiary":{${BENEFICIARY},"ib\\u0000an":"DE00"}}`],
  ['a lone high surrogate in a nested key', '/bank/payout', `{"quoteId":"q","accountId":"a","beneficiary":{${BENEFICIARY},"\\ud800":"DE00"}}`],
  [
    'a lone low surrogate in a nested object value',
    '/bank/payout',
    `{"quoteId":"q","accountId":"a","beneficiary":{${BENEFICIARY},"beneficiaryAddress":{"street":"x\\udc00"}}}`,
  ],
  ['a reversed pair', '/bank/deposit', '{"accountId":"a\\udc00\\ud800","walletId":"w","fiatCurrency":"EUR","fiatAmount":"1"}'],
  ['a NUL in a status id', '/bank/deposit/status', '{"id":"pay_1\\u0000"}'],
  ['a lone surrogate in a status id', '/card/payout/status', '{"id":"pay_1\\ud800"}'],
  ['a NUL in a crypto deposit id', '/deposit/status', '{"id":"p:0x\\u0000"}'],
  ['a NUL in a provider', '/deposit/sent', `{"provider":"r\\u0000","txHash":"0x${'a'.repeat(64)}","chainId":8453}`],
  ['a NUL in a card session', '/card/payout', '{"quoteId":"q","accountId":"a","cardSession":"cs\\u0000"}'],
  ['a NUL in a reference', '/bank/deposit', '{"accountId":"a","walletId":"w","fiatCurrency":"EUR","fiatAmount":"1","reference":"r\\u0000"}'],
  ['a lone surrogate in a returnUrl', '/card/payout/card-session', '{"returnUrl":"https://shop.example/\\ud800"}'],
  ['a NUL in a wallet-link message', '/deposit/wallet/link', `{"message":"x\\u0000","signature":"0x${'ab'.repeat(65)}"}`],
  ['a NUL key given twice', '/bank/deposit', '{"a\\u0000":1,"a\\u0000":2}'],
]

describe('NUL and lone surrogates in the body', { timeout: 60_000 }, () => {
  it.each(BODIES)('%s: one 4xx answer, not 500; nothing logged, forwarded or stored', async (_, path, text) => {
    const { handle, lines, forwarded } = kit()
    const before = await store.listPayments('alice')
    const res = await raw(handle, path, text)
    const body = await res.json()
    expect(res.status).toBe(400)
    expect(['invalid_field', 'duplicate_key']).toContain(body.error.code)
    expect(lines).toEqual([])
    expect(forwarded).toEqual([])
    expect(await store.listPayments('alice')).toEqual(before)
    // The answer is well-formed JSON text (the lone surrogate escaped, not raw).
    expect(JSON.stringify(body)).not.toMatch(/[\ud800-\udfff]/)
  })

  it('a valid surrogate pair is text like any other (the check is not over-broad)', async () => {
    const { handle } = kit()
    const res = await raw(handle, '/bank/deposit/status', '{"id":"pay_\\ud83d\\ude00"}')
    expect([res.status, (await res.json()).error.code]).toEqual([404, 'payment_not_found'])
  })

  it('a body nested thousands deep (16 KiB of it): 400, not 500, nothing logged', async () => {
    const { handle, lines } = kit()
    const depth = 5000
    const text = `{"quoteId":"q","accountId":"a","beneficiary":{${BENEFICIARY},"x":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}}`
    const res = await raw(handle, '/bank/payout', text)
    expect(res.status).toBe(400)
    expect(lines).toEqual([])
  })

  it('a body with a NUL does not reach authenticate either', async () => {
    let seen: string | undefined
    const handle = createPartnerHandler({
      apiBase: 'https://api.example',
      apiKey: 'sk_test_key',
      allowedOrigins: ['https://shop.example'],
      authenticate: async (token, request) => ((seen = await request.text()), token),
      store,
      log: () => {},
    })
    const res = await handle(
      new Request('http://localhost/bank/deposit', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer alice' },
        body: '{"accountId":"a\\u0000"}',
      }),
    )
    expect(res.status).toBe(400)
    expect(seen ?? '').not.toContain('\\u0000')
  })
})

const STATUS = 'POST /partner/bank/deposit/status HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n'

describe('NUL in the query, the path and headers', { timeout: 60_000 }, () => {
  const running: Served[] = []
  afterEach(() => {
    for (const s of running.splice(0)) s.close()
  })

  it.each([
    ['a NUL as a query name', '/card/rate?fiatCurrency=EUR&cryptoCurrency=USDC&amount=1&%00=1'],
    ['a NUL in a query value', '/card/rate?fiatCurrency=EUR&cryptoCurrency=USDC&amount=1&side=buy%00'],
    ['a NUL inside a known name', '/card/rate?fiatCurrency=EUR&cryptoCurrency=USDC&amount=1&si%00de=buy'],
    ['invalid UTF-8 (what would decode to a surrogate)', '/card/rate?fiatCurrency=EUR&cryptoCurrency=USDC&amount=1&side=%ED%A0%80'],
  ])('%s: 400, nothing forwarded or logged', async (_, query) => {
    const { handle, lines, forwarded } = kit()
    const res = await handle(new Request(`http://localhost/partner${query}`))
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('invalid_field')
    expect(forwarded).toEqual([])
    expect(lines).toEqual([])
  })

  it.each([
    ['a NUL in the Authorization header', `${STATUS}Authorization: Bearer al\x00ice\r\n`],
    ['a NUL in the Origin header', `${STATUS}Authorization: Bearer alice\r\nOrigin: https://shop.example\x00\r\n`],
    ['a NUL in a header name', `${STATUS}Authorization: Bearer alice\r\nX-\x00: 1\r\n`],
    ['bytes above 0x7f in the Authorization header', `${STATUS}Authorization: Bearer \xed\xa0\x80\r\n`],
    ['bytes above 0x7f in the Origin header', `${STATUS}Authorization: Bearer alice\r\nOrigin: https://shop.example\xff\r\n`],
    ['a NUL in the path', 'POST /partner/bank/deposit/status%00 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nAuthorization: Bearer alice\r\n'],
    ['a raw NUL in the path', 'POST /partner/bank/deposit/status\x00 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nAuthorization: Bearer alice\r\n'],
  ])('through createNodeListener, %s: one answer under 500, nothing logged, nothing forwarded', async (_, head) => {
    const { handle, lines, forwarded } = kit()
    const served = await serve(handle)
    running.push(served)
    const got = await exchange(served.port, Buffer.from(`${head}Connection: close\r\nContent-Length: 10\r\n\r\n{"id":"x"}`, 'latin1'))
    const [answer] = answers(got)
    expect(answer?.status).toBeGreaterThanOrEqual(400)
    expect(answer?.status).toBeLessThan(500)
    expect(lines).toEqual([])
    expect(served.lines).toEqual([])
    expect(forwarded).toEqual([])
  })
})
