// The sandbox's reference data on the partner path (GET /v1/limits, /v1/card/rate and the assumed
// /v1/payment-methods), and the partner backend (the kit) forwarding the widget's calls to them.
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain ESM module of the sandbox
import { createSandboxServer } from '../../sandbox/server.mjs'
// @ts-expect-error: plain ESM module of the sandbox
import { referenceRoutes } from '../../sandbox/routes/reference.mjs'

const PAGE = 'http://127.0.0.1:4173'
const KEY = 'sk_sandbox_partner_key'
let base = ''
let server: import('node:http').Server

beforeAll(async () => {
  process.env.SANDBOX_PARTNER_KIT = fileURLToPath(new URL('../../../src/server/index.ts', import.meta.url))
  // @ts-expect-error: plain ESM module of the sandbox
  const { cardRoutes } = await import('../../sandbox/routes/card.mjs')
  const routes: Record<string, unknown> = {}
  const reference = referenceRoutes()
  server = createSandboxServer({ allowedOrigins: [PAGE], routes, control: { set: reference.control.set, reset: reference.control.reset } })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const card = cardRoutes({ chains: {}, publicBase: base, allowedOrigins: [PAGE] })
  Object.assign(routes, card.routes, reference.routes)
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const get = async (path: string, headers: Record<string, string> = { Authorization: `Bearer ${KEY}` }) => {
  const res = await fetch(base + path, { headers })
  return { status: res.status, body: (await res.json()) as any }
}

describe('GET /v1/limits', () => {
  it('answers limit entries exactly: currency, rail, direction, max, min, settlement (null = no limit)', async () => {
    const { status, body } = await get('/v1/limits')
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['limits'])
    for (const entry of body.limits) {
      expect(Object.keys(entry).sort()).toEqual(['currency', 'direction', 'max', 'min', 'rail', 'settlement'])
      expect(['pay_in', 'payout', 'both']).toContain(entry.direction)
      expect(entry.max === null || /^\d+\.\d{2}$/.test(entry.max)).toBe(true)
    }
    expect(body.limits).toContainEqual({ currency: 'EUR', rail: 'sepa_instant', direction: 'both', max: '100000.00', min: '1.00', settlement: 'instant' })
    expect(body.limits.some((e: { max: unknown }) => e.max === null)).toBe(true)
  })
  it('filters by currency, and refuses a malformed one', async () => {
    const { body } = await get('/v1/limits?currency=GBP')
    expect(body.limits.map((e: { rail: string }) => e.rail)).toEqual(['faster_payments'])
    expect((await get('/v1/limits?currency=eur')).status).toBe(400)
  })
  it('needs a key: 401 for missing and unknown alike', async () => {
    expect(await get('/v1/limits', {})).toEqual({ status: 401, body: { error: { code: 'unauthorized', message: 'Missing, malformed or unknown key.' } } })
    expect((await get('/v1/limits', { Authorization: 'Bearer sk_other' })).body).toEqual((await get('/v1/limits', {})).body)
  })
})

describe('GET /v1/card/rate', () => {
  it('answers side, fiatCurrency, cryptoCurrency, fiatAmount, cryptoAmount, rate (buy by default)', async () => {
    const { body } = await get('/v1/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH&amount=100')
    // 100 EUR less 3.5 % (at least 2.99) and 0.5 %: 96 EUR at 3000 EUR per ETH.
    expect(body).toEqual({ side: 'buy', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', fiatAmount: '100.00', cryptoAmount: '0.032', rate: '3000.00' })
    const sell = (await get('/v1/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH&amount=100&side=sell')).body
    expect(sell).toMatchObject({ side: 'sell', fiatAmount: '100.00', cryptoAmount: '0.03466666' })
  })
  it('refuses an invalid side, a missing field, an unsupported currency', async () => {
    expect((await get('/v1/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH&amount=100&side=hold')).body.error.message).toBe('side: must be "buy" or "sell"')
    expect((await get('/v1/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH')).body.error.message).toBe('amount: required')
    expect((await get('/v1/card/rate?fiatCurrency=JPY&cryptoCurrency=ETH&amount=1')).status).toBe(400)
  })
})

describe('GET /v1/payment-methods (assumed shape)', () => {
  it('countries → currency and one boolean per method; US has no one-off bank deposit', async () => {
    const { body } = await get('/v1/payment-methods')
    expect(Object.keys(body)).toEqual(['countries'])
    expect(body.countries.DE).toEqual({ currency: 'EUR', bank_deposit: true, virtual_account: true, card: true, bank_payout: true, card_payout: true })
    expect(body.countries.US.bank_deposit).toBe(false)
    for (const methods of Object.values(body.countries) as Array<Record<string, unknown>>) {
      expect(Object.keys(methods).sort()).toEqual(['bank_deposit', 'bank_payout', 'card', 'card_payout', 'currency', 'virtual_account'])
    }
  })
})

// Issue 39, item 24: the contract's listing answers 501 not_implemented today, behind the key and
// its permission, and refuses a malformed filter or page as its intended contract says.
describe('GET /v1/virtual-accounts (501 today)', () => {
  const control = (body: unknown) =>
    fetch(`${base}/__sandbox/control`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  it('answers 501 not_implemented with no data, whatever the filter', async () => {
    for (const query of ['', '?currency=EUR&rail=sepa&active=true&limit=100&startingAfter=va_1']) {
      const { status, body } = await get(`/v1/virtual-accounts${query}`)
      expect(status).toBe(501)
      expect(Object.keys(body)).toEqual(['error'])
      expect(body.error).toEqual({ code: 'not_implemented', message: expect.stringMatching(/keep the details returned at creation/) })
    }
  })
  it('needs a key (401) with the virtual-accounts permission (403 permission_denied)', async () => {
    expect((await get('/v1/virtual-accounts', {})).body.error.code).toBe('unauthorized')
    await control({ keyPermissions: ['bank'] })
    try {
      expect(await get('/v1/virtual-accounts')).toEqual({
        status: 403,
        body: { error: { code: 'permission_denied', message: 'The key lacks the virtual-accounts permission.' } },
      })
    } finally {
      await fetch(`${base}/__sandbox/reset`, { method: 'POST' })
    }
  })
  it("the kit's read says so in its own code (VirtualAccountsNotListed), as it reads the sandbox", async () => {
    const { createPartnerReads, VirtualAccountsNotListed } = await import('../../../src/server/index')
    const reads = createPartnerReads({ apiBase: base, apiKey: KEY })
    await expect(reads.virtualAccounts({ currency: 'EUR', limit: 20 })).rejects.toBeInstanceOf(VirtualAccountsNotListed)
  })
  it.each(['limit=0', 'limit=101', 'limit=ten', 'active=yes', 'currency=eur', 'startingAfter='])(
    'refuses a malformed filter or page: %s (400)',
    async (query) => {
      const { status, body } = await get(`/v1/virtual-accounts?${query}`)
      expect(status).toBe(400)
      expect(body.error.code).toBe('invalid_request')
    },
  )
})

describe('through the partner backend (the kit)', () => {
  it('forwards /partner/limits, /partner/card/rate and /partner/payment-methods with the key', async () => {
    const page = { Origin: PAGE }
    expect((await get('/partner/limits?currency=EUR', page)).body.limits).toHaveLength(2)
    expect((await get('/partner/card/rate?fiatCurrency=GBP&cryptoCurrency=ETH&amount=50', page)).body).toMatchObject({ side: 'buy', fiatCurrency: 'GBP' })
    expect((await get('/partner/payment-methods', page)).body.countries.US.bank_deposit).toBe(false)
  })
})
