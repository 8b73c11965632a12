// @vitest-environment node
// Where the card provider sends the buyer back (issue 37, findings 4 and 6): the card purchase's
// returnUrl and the card payout session's are held to one rule, the page that asks (a caller
// without Origin: one of allowedOrigins), and what is forwarded is the URL as checked, in its
// canonical form; a URL another parser could read with another host is refused.
import { describe, expect, it, vi } from 'vitest'
import type { PaymentStore } from '../../../src/server/index'
import { SHOP, testKit } from '../helpers/kit'
import { paymentStoreForFile } from '../helpers/paymentStore'

const WIDGET = 'https://widget.example'
const wallet = `0x${'c'.repeat(40)}`
let store: PaymentStore
let n = 0
paymentStoreForFile((opened) => (store = opened))

function kit() {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname
    calls.push({ path, body: JSON.parse(String(init?.body)) })
    if (path === '/v1/card/purchase') return Response.json({ id: `cp_${++n}`, redirectUrl: 'https://card.example/p', environment: 'sandbox' })
    return Response.json({ id: `cs_${++n}`, url: 'https://card.example/s' })
  }) as unknown as typeof globalThis.fetch
  const { lines, as } = testKit({ allowedOrigins: [SHOP, WIDGET], store, fetch })
  return { calls, lines, post: (user: string, origin: string | null) => as(user, origin) }
}

const purchase = (returnUrl: string) => ({ kycToken: 'kyc_1', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl })
const routes = [
  ['/card/purchase', purchase],
  ['/card/payout/card-session', (returnUrl: string) => ({ returnUrl })],
] as const
const refused = { status: 400, body: { error: { code: 'invalid_field', message: expect.stringMatching(/^returnUrl: /) } } }
/** Everything stored for the user: payments and bindings (a card session is one). */
const recorded = async (user: string) => [
  ...(await store.db.query('SELECT kind, id FROM stablecoin_widget.payments WHERE user_id = $1 ORDER BY id', [user])).rows,
  ...(await store.db.query('SELECT what, value FROM stablecoin_widget.bindings WHERE user_id = $1 ORDER BY value', [user])).rows,
]

describe('the card purchase returns only to the page that asks, as the card payout session does', () => {
  it('any other host is 400, from an allowed page and with no Origin, and the service never hears of it', async () => {
    const { calls, post } = kit()
    for (const [path, body] of routes) {
      for (const returnUrl of ['https://evil.example/collect', `${WIDGET}/widget.html`, 'https://shop.example.evil.example/', 'http://shop.example/']) {
        expect(await post('u-purchase-4', SHOP)(path, body(returnUrl)), `${path} ${returnUrl}`).toEqual(refused)
      }
      expect(await post('u-purchase-4', null)(path, body('https://evil.example/collect')), `${path} without Origin`).toEqual(refused)
    }
    expect(calls).toEqual([])
    expect(await recorded('u-purchase-4')).toEqual([])
    // The page that asks, and for a server (no Origin) any of allowedOrigins.
    for (const [path, body] of routes) {
      expect((await post('u-purchase-4', SHOP)(path, body(`${SHOP}/done?flow=card`))).status, path).toBe(200)
      expect((await post('u-purchase-4', null)(path, body(`${WIDGET}/w`))).status, path).toBe(200)
    }
    expect(calls.map((c) => c.body.returnUrl)).toEqual([`${SHOP}/done?flow=card`, `${WIDGET}/w`, `${SHOP}/done?flow=card`, `${WIDGET}/w`])
  })
})

describe('the returnUrl forwarded is the one checked, in canonical form', () => {
  it('refuses a URL another parser could read with another host: a backslash, user info, a space or control character, an encoded or short-hand host', async () => {
    const { calls, post } = kit()
    const before = await recorded('u-canon-6')
    for (const returnUrl of [
      'https://shop.example\\@evil.example/back', // WHATWG: host shop.example; most others: evil.example
      'https://shop.example\\evil.example/back',
      'https://@shop.example/back',
      'https://shop.example@shop.example/back',
      'https://shop.exa\tmple/back',
      'https://shop.example/ba\nck',
      ' https://shop.example/back',
      'https://shop%2Eexample/back',
      'https:shop.example/back',
      'https:/shop.example/back',
    ]) {
      for (const [path, body] of routes) expect(await post('u-canon-6', SHOP)(path, body(returnUrl)), `${path} ${JSON.stringify(returnUrl)}`).toEqual(refused)
    }
    expect(calls).toEqual([])
    expect(await recorded('u-canon-6')).toEqual(before)
  })

  it('forwards new URL(returnUrl).href, never the string as given', async () => {
    const { calls, post } = kit()
    for (const [path, body] of routes) {
      expect((await post('u-canon-6b', SHOP)(path, body('https://SHOP.example:443/a/../back?x=1'))).status, path).toBe(200)
      expect((await post('u-canon-6b', SHOP)(path, body(SHOP))).status, path).toBe(200)
    }
    expect(calls.map((c) => c.body.returnUrl)).toEqual([`${SHOP}/back?x=1`, `${SHOP}/`, `${SHOP}/back?x=1`, `${SHOP}/`])
  })
})
