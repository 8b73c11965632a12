// @vitest-environment node
// Per-user limits kept in the store, a key read on every request (rotation without a restart),
// and the typed partner-path reads a server confirms payments with.
import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { type PartnerHandlerOptions, type PaymentStore, StatusFetchError, createPartnerHandler, createPartnerReads } from '../../../src/server/index'
import { SHOP, testKit } from '../helpers/kit'
import { paymentStoreForFile } from '../helpers/paymentStore'

let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

function service(answer: (path: string, body: Record<string, unknown>, key: string) => Response) {
  const calls: Array<{ path: string; key: string }> = []
  let n = 0
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname
    const key = (new Headers(init?.headers).get('Authorization') ?? '').replace('Bearer ', '')
    calls.push({ path, key })
    return answer(path, { ...(init?.body ? JSON.parse(String(init.body)) : {}), n: ++n }, key)
  }) as unknown as typeof globalThis.fetch
  return { fetch, calls }
}

const creating = (path: string, body: Record<string, unknown>) => {
  if (path === '/v1/bank/payout/quote')
    return Response.json({
      quoteId: `q_${body.n}_${Math.random()}`,
      cryptoAmount: '1',
      fiatAmount: body.fiatAmount,
      rate: '1',
      rail: 'sepa',
      estimatedSettlement: 'instant',
      providerFee: '0',
      ourFee: '0',
      expiresAt: '2030-01-01T00:00:00Z',
    })
  return Response.json({ id: `${path.split('/')[3]}_${body.n}_${Math.random()}`, status: 'pending' })
}

function kit(options: Partial<PartnerHandlerOptions>, upstream = service(creating)) {
  const { handle, as, lines } = testKit({ store, fetch: upstream.fetch, ...options })
  return { handle, as: (user: string) => as(user), lines, upstream }
}

describe('userLimits', () => {
  it('refuses the payout over the count per day with 429 user_limit_reached, nothing forwarded, and counts each user apart', async () => {
    const { as, upstream } = kit({ userLimits: { payout: { perDay: 2 } } })
    const payout = async (user: string) => {
      const quote = await as(user)('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '10' })
      return as(user)('/bank/payout', { quoteId: quote.body.quoteId, accountId: `acc_${user}`, beneficiary: { name: 'A', schema: 'bank_sepa' } })
    }
    expect((await payout('lim-a')).status).toBe(200)
    expect((await payout('lim-a')).status).toBe(200)
    const before = upstream.calls.filter((c) => c.path === '/v1/bank/payout').length
    expect(await payout('lim-a')).toEqual({
      status: 429,
      body: { error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 2 per day." } },
    })
    expect(upstream.calls.filter((c) => c.path === '/v1/bank/payout')).toHaveLength(before)
    expect((await payout('lim-b')).status).toBe(200)
  })

  it('sums amounts exactly per currency against maxAmount; a payout counts its quote, and a quote it never gave is refused', async () => {
    const { as } = kit({ userLimits: { bankDeposit: { maxAmount: { EUR: '100.10' } }, payout: { maxAmount: { EUR: '50' } } } })
    const deposit = (amount: string, currency = 'EUR') =>
      as('lim-c')('/bank/deposit', { accountId: 'acc_lim_c', walletId: 'w_lim_c', fiatCurrency: currency, fiatAmount: amount })
    expect((await deposit('60.05')).status).toBe(200)
    expect((await deposit('40.06')).status).toBe(429)
    expect((await deposit('40.05')).status).toBe(200)
    // A currency without a ceiling is not limited.
    expect((await deposit('5000', 'GBP')).status).toBe(200)
    const quote = async (amount: string, user = 'lim-c') =>
      (await as(user)('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: amount })).body.quoteId
    const payout = (quoteId: string, user = 'lim-c') =>
      as(user)('/bank/payout', { quoteId, accountId: `acc_${user}`, beneficiary: { name: 'A', schema: 'bank_sepa' } })
    expect((await payout(await quote('30'))).status).toBe(200)
    expect((await payout(await quote('30'))).status).toBe(429)
    expect((await payout(await quote('20'))).status).toBe(200)
    expect(await payout('q_made_up')).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field', message: 'quoteId: not a quote this backend gave this user' } },
    })
    // Another user's small quote does not lift this user's ceiling... and is not this user's at all.
    expect((await payout(await quote('1', 'lim-d'))).status).toBe(400)
  })

  it('holds under concurrency in one process: of five payouts at once with room for two, two pass', async () => {
    const { as } = kit({ userLimits: { bankDeposit: { perDay: 2 } } })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => as('lim-e')('/bank/deposit', { accountId: 'acc_lim_e', walletId: 'w_lim_e', fiatCurrency: 'EUR', fiatAmount: '1' })),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429])
  })

  it('refuses limits that are not numbers and decimal strings when the handler is made', () => {
    const base = { apiBase: 'https://api.example', apiKey: 'k', allowedOrigins: [SHOP], authenticate: () => 'u' }
    expect(() => createPartnerHandler({ ...base, userLimits: { payout: { perDay: 1.5 } } })).toThrow(/perDay/)
    expect(() => createPartnerHandler({ ...base, userLimits: { payout: { maxAmount: { EUR: 100 as unknown as string } } } })).toThrow(/maxAmount\.EUR/)
  })
})

describe('apiKey as a function', () => {
  it('is read on every request, so a rotated key is used at once; a 401 is logged once per key, by fingerprint, never the key', async () => {
    let key = 'sk_old_key_1'
    const upstream = service((_path, _body, used) =>
      used === 'sk_new_key_2'
        ? Response.json({ token: 't', environment: 'sandbox' })
        : Response.json({ error: { code: 'unauthorized', message: 'no' } }, { status: 401 }),
    )
    const { as, lines } = kit({ apiKey: () => key }, upstream)
    const kyc = () => as('rot')('/card/kyc-token', { walletAddress: `0x${'c'.repeat(40)}` })
    expect((await kyc()).body.error.code).toBe('service_refused_key')
    expect((await kyc()).status).toBe(502)
    key = 'sk_new_key_2'
    expect((await kyc()).status).toBe(200)
    key = 'sk_revoked_3'
    expect((await kyc()).status).toBe(502)
    expect(upstream.calls.map((c) => c.key)).toEqual(['sk_old_key_1', 'sk_old_key_1', 'sk_new_key_2', 'sk_revoked_3'])
    const print = (k: string) => createHash('sha256').update(k).digest('hex').slice(0, 8)
    expect(lines).toEqual([
      `POST /v1/card/kyc-token: the service refused the API key with fingerprint ${print('sk_old_key_1')} (401)`,
      `POST /v1/card/kyc-token: the service refused the API key with fingerprint ${print('sk_revoked_3')} (401)`,
    ])
  })

  it('a key function that throws or answers no key is a 500 kit_error, logged without the key, and nothing is sent', async () => {
    const upstream = service(() => Response.json({}))
    for (const apiKey of [
      () => {
        throw new Error('vault down')
      },
      () => '',
      async () => 'has space',
    ]) {
      const { as, lines } = kit({ apiKey }, upstream)
      expect((await as('rot')('/card/kyc-token', { walletAddress: `0x${'c'.repeat(40)}` })).body.error.code).toBe('kit_error')
      expect(lines[0]).toMatch(/^apiKey could not be read: /)
      expect(lines[0]).not.toContain('has space')
    }
    expect(upstream.calls).toHaveLength(0)
  })
})

describe('createPartnerReads', () => {
  it('asks each status endpoint with the key and answers the record parsed with the contract schema', async () => {
    const upstream = service((path, body) => {
      if (path === '/v1/deposit/status') return Response.json({ status: 'done', txHashes: { origin: (body.receipt as { txHash: string }).txHash } })
      if (path === '/v1/card/status') return Response.json({ id: body.id, status: 'completed', environment: 'sandbox', extra: 'dropped?' })
      if (path === '/v1/bank/payout/status') return Response.json({ id: body.id, status: 'not-a-status' })
      return Response.json({ id: body.id, status: 'settled' })
    })
    const reads = createPartnerReads({ apiBase: 'https://api.example', apiKey: async () => 'sk_reads', fetch: upstream.fetch })
    expect(await reads.cardPurchase('cp_1')).toMatchObject({ id: 'cp_1', status: 'completed' })
    expect(await reads.bankDeposit('bd_1')).toMatchObject({ id: 'bd_1', status: 'settled' })
    const txHash = `0x${'1'.repeat(64)}`
    expect(await reads.deposit({ provider: 'router', receipt: { txHash, logs: [] } })).toEqual({ status: 'done', txHashes: { origin: txHash } })
    await expect(reads.payout('po_1')).rejects.toThrow(StatusFetchError)
    await expect(reads.payout('po_1')).rejects.toThrow(/does not match the contract/)
    expect(upstream.calls.map((c) => `${c.path} ${c.key}`)).toEqual([
      '/v1/card/status sk_reads',
      '/v1/bank/deposit/status sk_reads',
      '/v1/deposit/status sk_reads',
      '/v1/bank/payout/status sk_reads',
      '/v1/bank/payout/status sk_reads',
    ])
  })
})
