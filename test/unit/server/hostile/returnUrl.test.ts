// @vitest-environment node
// Hostile requests against the returnUrl rule: the card page sends the buyer there, so a
// returnUrl the kit forwards must be a page of the asking origin, forwarded in the form it checked.
// Each test FAILS if a spelling gets another host (for the browser or for another parser) through.
import { parse as legacyParse } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createPartnerHandler, type PaymentStore } from '../../../../src/server/index'
import { paymentStoreForFile } from '../../helpers/paymentStore'

let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

const SHOP = 'https://shop.example'
function kit(allowedOrigins = [SHOP]) {
  const forwarded: Array<Record<string, unknown>> = []
  const lines: string[] = []
  let n = 0
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    allowedOrigins,
    basePath: '/partner',
    authenticate: (token) => token,
    store,
    log: (line) => lines.push(line),
    fetch: (async (_input: string | URL, init: RequestInit) => {
      forwarded.push(JSON.parse(String(init.body)))
      n++
      return Response.json({ id: `cs_${Math.random().toString(36).slice(2)}_${n}`, url: 'https://cards.example/page' })
    }) as unknown as typeof fetch,
  })
  return { handle, forwarded, lines }
}

const ask = (handle: (r: Request) => Promise<Response>, returnUrl: string, origin: string | null = SHOP, path = '/partner/card/payout/card-session') =>
  handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer alice', ...(origin === null ? {} : { Origin: origin }) },
      body: JSON.stringify({ returnUrl }),
    }),
  )

/** What every forwarded returnUrl must be: the browser's canonical form, on the asking origin, read alike by another parser. */
function checkForwarded(sent: string, origin: string) {
  const url = new URL(sent)
  expect(url.href).toBe(sent)
  expect(url.origin).toBe(origin)
  expect(sent).not.toMatch(/[\\\x00-\x20\x7f]/)
  // Node's legacy parser (what many server libraries still use) sees the same host.
  const legacy = legacyParse(sent)
  expect(`${legacy.protocol}//${legacy.host}`).toBe(origin)
  expect(legacy.auth).toBe(null)
}

const SPELLINGS: string[] = [
  'https://shop.example/done',
  'HTTPS://SHOP.EXAMPLE/done',
  'https://shop.example:443/done',
  'https://shop.example:/done',
  'https://shop.example:0443/done',
  'https://shop.example./done',
  'https://shop.example%2eevil.example/',
  'https://shop.example%2E/',
  'https://shop%2eexample/',
  'https://shop.example\t/x',
  'https://shop.ex\nample/',
  'https://shop.example/\r\nLocation: https://evil.example/',
  'https://shop.example/ done',
  'javascript:alert(1)//https://shop.example/',
  'javascript://shop.example/%0aalert(1)',
  'data:text/html,https://shop.example/',
  'http://shop.example/done',
  'https://shop.example@evil.example/',
  'https://@shop.example/',
  'https://shop.example:443@evil.example/',
  'https://evil.example#@shop.example/',
  'https://evil.example?@shop.example/',
  'https://shop.example\\@evil.example/',
  'https://shop.example\\.evil.example/',
  'https:shop.example/done',
  'https:/shop.example/done',
  'https:\\\\shop.example/done',
  '//shop.example/done',
  'https://shop.example//evil.example/x',
  'https://shop.example/..//evil.example',
  'https://shop.example/%2e%2e/%2e%2e/x',
  'https://shop.example/done#https://evil.example',
  'https://shop.example/?next=https://evil.example',
  'https://\uff53\uff48\uff4f\uff50.example/',
  'https://shop\u3002example/',
  'https://sho\u00adp.example/',
  'https://shop.example\u200b/',
  'https://xn--shop-.example/',
  'https://shop.example.evil.example/',
  'https://evilshop.example/',
  'https://shop.example:8443/',
  'https://[::ffff:127.0.0.1]/',
  'https://0x7f.1/',
  'https://shop.example/\u2028x',
  'https://shop.example/\u00fc',
  `https://shop.example/${'a'.repeat(8200)}`,
]

describe('returnUrl spellings, Origin https://shop.example', { timeout: 60_000 }, () => {
  it.each(SPELLINGS.map((s) => [JSON.stringify(s).slice(0, 80), s]))(
    '%s: refused, or forwarded as the checked canonical URL of the asking origin',
    async (_, returnUrl) => {
      const { handle, forwarded } = kit()
      const res = await ask(handle, returnUrl)
      if (res.status === 400) {
        expect((await res.json()).error.code).toBe('invalid_field')
        expect(forwarded).toEqual([])
        return
      }
      expect(res.status).toBe(200)
      expect(forwarded).toHaveLength(1)
      checkForwarded(forwarded[0].returnUrl as string, SHOP)
    },
  )

  it('the card purchase follows the same rule (another host refused, the canonical form forwarded)', async () => {
    const { handle, forwarded } = kit()
    const purchase = (returnUrl: string) =>
      handle(
        new Request('http://localhost/partner/card/purchase', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer alice', Origin: SHOP },
          body: JSON.stringify({ kycToken: 'kyc', fiatCurrency: 'EUR', fiatAmount: '10', walletAddress: `0x${'1'.repeat(40)}`, returnUrl }),
        }),
      )
    expect((await purchase('https://evil.example/collect')).status).toBe(400)
    expect((await purchase('http://shop.example/done')).status).toBe(400)
    await purchase('HTTPS://Shop.Example:443/d%6fne?x=<y>')
    expect(forwarded.map((f) => f.returnUrl)).toEqual(['https://shop.example/d%6fne?x=%3Cy%3E'])
  })
})

describe('whose origin', { timeout: 60_000 }, () => {
  it('a caller without Origin: one of allowedOrigins only; the first listed is not a wildcard for others', async () => {
    const { handle, forwarded } = kit([SHOP, 'https://other.example'])
    expect((await ask(handle, 'https://other.example/back', null)).status).toBe(200)
    expect((await ask(handle, 'https://evil.example/back', null)).status).toBe(400)
    expect(forwarded.map((f) => f.returnUrl)).toEqual(['https://other.example/back'])
  })

  it('a page of one allowed origin cannot send the buyer to another allowed origin', async () => {
    const { handle, forwarded } = kit([SHOP, 'https://other.example'])
    expect((await ask(handle, 'https://other.example/back', SHOP)).status).toBe(400)
    expect(forwarded).toEqual([])
  })

  it('IDN and IPv6 origins: only the spelling the browser writes passes, forwarded as such', async () => {
    const idn = 'https://xn--bcher-kva.example'
    const v6 = 'http://[::1]:8080'
    const { handle, forwarded } = kit([idn, v6])
    for (const [returnUrl, origin] of [
      ['https://bücher.example/x', idn],
      ['https://BÜCHER.example/x', idn],
      ['https://xn--bcher-kva.example/x', idn],
      ['http://[0:0::1]:8080/x', v6],
      ['http://[::1]:8080/x', v6],
      ['http://[::1]:08080/x', v6],
      ['http://[::0:1]:8080/x', v6],
    ]) {
      const before = forwarded.length
      const res = await ask(handle, returnUrl, origin)
      if (res.status === 200) checkForwarded(forwarded[before].returnUrl as string, origin)
      else expect(res.status).toBe(400)
    }
  })
})
