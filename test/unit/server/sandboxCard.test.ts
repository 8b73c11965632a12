import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MiniSandbox, SANDBOX_KEY, startMiniSandbox } from './miniSandbox'
// @ts-expect-error: plain ESM module of the sandbox
import { KEY_RATE } from '../../sandbox/rateLimit.mjs'

let sandbox: MiniSandbox
beforeAll(async () => {
  sandbox = await startMiniSandbox()
}, 60_000)
afterAll(() => sandbox.close())

describe('the sandbox card answers', () => {
  it('/v1/card/limits carries environment like every card answer', async () => {
    const res = await fetch(`${sandbox.base}/v1/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH`, {
      headers: { Authorization: `Bearer ${SANDBOX_KEY}` },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '20', max: '5000', environment: 'sandbox' })
  })

  it('every other card answer carries it too', async () => {
    const auth = { Authorization: `Bearer ${SANDBOX_KEY}`, 'Content-Type': 'application/json' }
    const post = async (path: string, body: unknown) =>
      (await fetch(`${sandbox.base}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()
    const wallet = `0x${'a'.repeat(40)}`
    expect(await post('/v1/card/quote', { fiatCurrency: 'EUR', fiatAmount: '50' })).toMatchObject({ environment: 'sandbox' })
    const { token, environment } = await post('/v1/card/kyc-token', { walletAddress: wallet })
    expect(environment).toBe('sandbox')
    const purchase = await post('/v1/card/purchase', {
      kycToken: token,
      fiatCurrency: 'EUR',
      fiatAmount: '50',
      walletAddress: wallet,
      returnUrl: 'http://127.0.0.1:4173/?flow=card',
    })
    expect(purchase).toMatchObject({ environment: 'sandbox' })
    expect(await post('/v1/card/status', { id: purchase.id })).toMatchObject({ status: 'pending', environment: 'sandbox' })
  })
})

describe("the sandbox key's rate", () => {
  it('over KEY_RATE requests within its window, the partner path answers 429 with Retry-After; another key and a reset start afresh', async () => {
    await sandbox.reset()
    const limits = (key: string) => fetch(`${sandbox.base}/v1/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH`, { headers: { Authorization: `Bearer ${key}` } })
    const answers = await Promise.all(Array.from({ length: KEY_RATE.limit + 1 }, () => limits(SANDBOX_KEY)))
    const statuses = answers.map((res) => res.status).sort()
    expect(statuses).toEqual([...Array(KEY_RATE.limit).fill(200), 429])
    const refused = answers.find((res) => res.status === 429)!
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1)
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } })
    // Counted per key: another key is not held by this one's requests (the sandbox knows it not: 401).
    expect((await limits('sk_another_key')).status).toBe(401)
    await sandbox.reset()
    expect((await limits(SANDBOX_KEY)).status).toBe(200)
  })
})
