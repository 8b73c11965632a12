// Issue 12: the partner backend gets no cookies unless the partner opts in, learns its user from
// a token, and a backend that does not answer (or refuses CORS) is the shop's problem, not the buyer's.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createPartnerClient } from '../../../src/api/card'
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
    const partner = createPartnerClient({ base: 'https://shop.example/api/', fetch })
    await partner.limits('EUR', 'ETH')
    await partner.kycToken(`0x${'1'.repeat(40)}`).catch(() => undefined)
    expect(calls.map((c) => c.init.credentials)).toEqual(['omit', 'omit'])
    for (const c of calls) expect(new Headers(c.init.headers).has('Authorization')).toBe(false)
    expect(calls[0]!.url).toBe('https://shop.example/api/card/limits?fiatCurrency=EUR&cryptoCurrency=ETH')
  })

  it('sends the partner token as a bearer token on every call', async () => {
    const { calls, fetch } = recording(ok({ id: 'p1', status: 'pending', environment: 'sandbox' }))
    const partner = createPartnerClient({ base: 'https://shop.example/api', token: 'tok-123', fetch })
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
    await createPartnerClient({ base: 'https://shop.example/api', cookies: true, fetch }).limits('EUR', 'ETH')
    expect(calls[0]!.init.credentials).toBe('include')
  })

  it('a backend that refuses CORS (fetch rejects) is the shop’s payment service not answering, not the buyer’s connection', async () => {
    vi.stubGlobal('navigator', { onLine: true })
    const partner = createPartnerClient({
      base: 'https://shop.example/api',
      fetch: (async () => {
        throw new TypeError('Failed to fetch')
      }) as unknown as typeof globalThis.fetch,
    })
    const error = await partner.kycToken(`0x${'1'.repeat(40)}`).catch((e) => e)
    const text = problemText(describeError(error))
    expect(text).toMatch(/shop/i)
    expect(text).not.toMatch(/your connection/i)
  })

  it('while the browser is offline it still says to check the connection', async () => {
    vi.stubGlobal('navigator', { onLine: false })
    const partner = createPartnerClient({
      base: 'https://shop.example/api',
      fetch: (async () => {
        throw new TypeError('Failed to fetch')
      }) as unknown as typeof globalThis.fetch,
    })
    const error = await partner.kycToken(`0x${'1'.repeat(40)}`).catch((e) => e)
    expect(describeError(error).key).toBe('error.network')
  })
})
