// The sandbox's partner-backend stand-in (/partner/card/*) is the kit's handler, behind the
// sandbox's own server (its fault injection, its log), forwarding to the sandbox's /v1/card/*.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type MiniSandbox, PAGE_ORIGIN, SANDBOX_KEY, startMiniSandbox } from './miniSandbox'

let sandbox: MiniSandbox
beforeAll(async () => {
  sandbox = await startMiniSandbox()
}, 60_000)
afterAll(() => sandbox.close())
beforeEach(() => sandbox.reset())

const wallet = `0x${'b'.repeat(40)}`
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.base}${path}`, {
    method: 'POST',
    headers: { Origin: PAGE_ORIGIN, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

async function text(res: Response) {
  return `${[...res.headers].join('\n')}\n${await res.text()}`
}

describe('the sandbox partner backend', () => {
  it('a purchase round-trips: kyc-token, purchase, status, with CORS for the page and never the key', async () => {
    const kyc = await post('/partner/card/kyc-token', { walletAddress: wallet })
    expect(kyc.status).toBe(200)
    expect(kyc.headers.get('Access-Control-Allow-Origin')).toBe(PAGE_ORIGIN)
    const { token } = await kyc.json()
    const purchase = await post('/partner/card/purchase', {
      kycToken: token,
      fiatCurrency: 'EUR',
      fiatAmount: '50',
      walletAddress: wallet,
      returnUrl: `${PAGE_ORIGIN}/?flow=card`,
    })
    expect(purchase.status).toBe(200)
    const { id, redirectUrl, environment } = await purchase.json()
    expect(environment).toBe('sandbox')
    expect(redirectUrl).toBe(`${sandbox.base}/card-page?id=${id}`)
    const status = await post('/partner/card/status', { id })
    const body = await text(status)
    expect(body).toContain('"status":"pending"')
    expect(body).not.toContain(SANDBOX_KEY)
    const limits = await fetch(`${sandbox.base}/partner/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH`, { headers: { Origin: PAGE_ORIGIN } })
    expect(await limits.json()).toEqual({ fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '20', max: '5000', environment: 'sandbox' })
  })

  it("hands the kit the bytes the page sent, so a key given twice or a body that is not JSON is the kit's to refuse", async () => {
    const raw = (body: string) =>
      fetch(`${sandbox.base}/partner/card/status`, { method: 'POST', headers: { Origin: PAGE_ORIGIN, 'Content-Type': 'application/json' }, body })
    const twice = await raw('{"id":"cp_mine","id":"cp_victim"}')
    expect(twice.status).toBe(400)
    expect(await twice.json()).toEqual({ error: { code: 'duplicate_key', message: 'id: given more than once' } })
    const broken = await raw('{"id":')
    expect(await broken.json()).toEqual({ error: { code: 'invalid_json', message: 'body: not valid JSON' } })
    expect((await sandbox.log()).filter((e) => e.path === '/v1/card/status')).toHaveLength(0)
  })

  it('refuses a field the contract does not define, before anything is forwarded', async () => {
    const res = await post('/partner/card/kyc-token', { walletAddress: wallet, userId: 'u1' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { code: 'invalid_field', message: 'userId: not a field of this request' } })
    expect((await sandbox.log()).filter((e) => e.path === '/v1/card/kyc-token')).toHaveLength(0)
  })

  it('answers the preflight of a widget that sends its partner token', async () => {
    const res = await fetch(`${sandbox.base}/partner/card/purchase`, {
      method: 'OPTIONS',
      headers: { Origin: PAGE_ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(PAGE_ORIGIN)
    expect(res.headers.get('Access-Control-Allow-Headers')).toMatch(/Authorization/)
    expect(res.headers.get('Access-Control-Allow-Headers')).toMatch(/Content-Type/)
  })

  it('gives a foreign origin no CORS headers', async () => {
    const res = await post('/partner/card/kyc-token', { walletAddress: wallet }, { Origin: 'https://evil.example' })
    expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([])
    expect(res.status).toBe(403)
  })

  it('keeps its fault injection on the partner paths, with CORS on the injected answer', async () => {
    await sandbox.control({
      faults: [
        { kind: '502', count: 1, path: '/partner/card/kyc-token' },
        { kind: 'malformed', count: 1, path: '/partner/card/status' },
      ],
    })
    const faulted = await post('/partner/card/kyc-token', { walletAddress: wallet })
    expect(faulted.status).toBe(502)
    expect(faulted.headers.get('Access-Control-Allow-Origin')).toBe(PAGE_ORIGIN)
    expect((await post('/partner/card/kyc-token', { walletAddress: wallet })).status).toBe(200)
    const malformed = await post('/partner/card/status', { id: 'cp_x' })
    expect(await malformed.json()).toEqual({ unexpected: true })
  })

  it('can require a partner token (control partnerToken), refusing others with 401', async () => {
    await sandbox.control({ partnerToken: 'user-42' })
    expect((await post('/partner/card/kyc-token', { walletAddress: wallet })).status).toBe(401)
    expect((await post('/partner/card/kyc-token', { walletAddress: wallet }, { Authorization: 'Bearer user-41' })).status).toBe(401)
    expect((await post('/partner/card/kyc-token', { walletAddress: wallet }, { Authorization: 'Bearer user-42' })).status).toBe(200)
  })

  it('answers CORS the usual way, without Allow-Credentials, unless told to allow them (control partnerCredentials)', async () => {
    const before = await post('/partner/card/kyc-token', { walletAddress: wallet })
    expect(before.headers.get('Access-Control-Allow-Origin')).toBe(PAGE_ORIGIN)
    expect(before.headers.get('Access-Control-Allow-Credentials')).toBeNull()
    await sandbox.control({ partnerCredentials: true })
    const after = await post('/partner/card/kyc-token', { walletAddress: wallet })
    expect(after.headers.get('Access-Control-Allow-Credentials')).toBe('true')
    const preflight = await fetch(`${sandbox.base}/partner/card/kyc-token`, { method: 'OPTIONS', headers: { Origin: PAGE_ORIGIN } })
    expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBe('true')
  })
})
