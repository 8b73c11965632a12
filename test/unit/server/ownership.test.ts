// @vitest-environment node
// Who owns what, through the handler: every id the kit creates is its user's, and anyone else who
// names it gets 404 without the service hearing of it; an account belongs to its first user.
import { describe, expect, it, vi } from 'vitest'
import type { PartnerHandlerOptions, PaymentStore } from '../../../src/server/index'
import { SHOP, testKit } from '../helpers/kit'
import { paymentStoreForFile } from '../helpers/paymentStore'

const wallet = `0x${'c'.repeat(40)}`
let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

/** A service that creates what it is asked to, with fresh ids, and counts every request. */
function fakeService() {
  const calls: Array<{ path: string; body: unknown }> = []
  let n = 0
  const answers: Record<string, (body: Record<string, unknown>) => Response> = {
    '/v1/card/kyc-token': () => Response.json({ token: `kyc_${++n}`, environment: 'sandbox' }),
    '/v1/card/purchase': () => Response.json({ id: `cp_${++n}`, redirectUrl: 'https://card.example/p', environment: 'sandbox' }),
    '/v1/card/status': (body) => Response.json({ id: body.id, status: 'pending', environment: 'sandbox' }),
    // An amount of 10.01 gets one id whoever asks: a service that hands back a payment another user holds.
    '/v1/bank/deposit': (body) =>
      Response.json({
        id: body.fiatAmount === '10.01' ? 'bd_shared' : `bd_${++n}`,
        details: {},
        rail: 'sepa_instant',
        expiresAt: '2030-01-01T00:00:00Z',
        status: 'awaiting_funds',
      }),
    '/v1/bank/deposit/status': (body) => Response.json({ id: body.id, status: 'awaiting_funds' }),
    '/v1/bank/payout/quote': (body) =>
      Response.json({
        quoteId: `q_${++n}`,
        cryptoAmount: body.fiatAmount,
        fiatAmount: body.fiatAmount,
        rate: '1',
        rail: 'sepa_instant',
        estimatedSettlement: 'instant',
        providerFee: '0',
        ourFee: '0',
        expiresAt: '2030-01-01T00:00:00Z',
      }),
    '/v1/bank/payout': () =>
      Response.json({ id: `po_${++n}`, depositAddress: wallet, depositAmount: '10', chain: 8453, status: 'pending', expiresAt: '2030-01-01T00:00:00Z' }),
    '/v1/bank/payout/status': (body) => Response.json({ id: body.id, status: 'pending' }),
    '/v1/limits': () => Response.json([]),
  }
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ path, body })
    return answers[path]?.(body) ?? Response.json({ error: { code: 'not_found', message: 'no' } }, { status: 404 })
  }) as unknown as typeof globalThis.fetch
  return { fetch, calls, paths: () => calls.map((c) => c.path) }
}

function kit(options: Partial<PartnerHandlerOptions> = {}) {
  const service = fakeService()
  const { handle, lines } = testKit({
    // The sessions of this shop: a token names its user.
    authenticate: (token) => ({ 'tok-alice': 'alice', 'tok-bob': 'bob' })[token],
    store,
    fetch: service.fetch,
    ...options,
  })
  const as = (token: string | undefined) => async (path: string, body?: unknown) => {
    const res = await handle(
      new Request(`${SHOP}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          Origin: SHOP,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    )
    return { status: res.status, body: await res.json() }
  }
  return { service, lines, alice: as('tok-alice'), bob: as('tok-bob'), anonymous: as(undefined), as }
}

const notFound = { status: 404, body: { error: { code: 'payment_not_found', message: 'No such payment for this user.' } } }
const purchase = { kycToken: 'kyc_1', fiatCurrency: 'EUR', fiatAmount: '50', walletAddress: wallet, returnUrl: `${SHOP}/done` }
let serial = 0
const account = () => `acc_${++serial}_${Math.random().toString(36).slice(2)}`

describe('ownership of what the kit creates', () => {
  it("a card purchase is its creator's: another user, or any other spelling of the id, gets 404 and the service hears nothing", async () => {
    const { service, alice, bob } = kit()
    const { body } = await alice('/card/purchase', purchase)
    expect(body.id).toMatch(/^cp_/)
    expect(await alice('/card/status', { id: body.id })).toMatchObject({ status: 200, body: { id: body.id, status: 'pending' } })
    const before = service.calls.length
    expect(await bob('/card/status', { id: body.id })).toEqual(notFound)
    for (const spelling of [body.id.toUpperCase(), ` ${body.id}`, `${body.id} `, `${body.id}\n`, `${body.id}%00`]) {
      expect(await alice('/card/status', { id: spelling }), JSON.stringify(spelling)).toEqual(notFound)
    }
    expect(await alice('/card/status', { id: 'cp_never_created' })).toEqual(notFound)
    expect(service.calls.length).toBe(before)
    expect(await store.ownerOf('card', body.id)).toBe('alice')
  })

  it("a bank deposit and a payout are their creator's; their status is 404 to anyone else", async () => {
    const { service, alice, bob } = kit()
    const acc = account()
    const deposit = await alice('/bank/deposit', { accountId: acc, walletId: `w_${acc}`, fiatCurrency: 'EUR', fiatAmount: '100' })
    expect(deposit.status).toBe(200)
    const quote = await alice('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '10' })
    const payout = await alice('/bank/payout', { quoteId: quote.body.quoteId, accountId: acc, beneficiary: { name: 'Ada', schema: 'bank_sepa' } })
    expect(payout.status).toBe(200)
    const before = service.calls.length
    expect(await bob('/bank/deposit/status', { id: deposit.body.id })).toEqual(notFound)
    expect(await bob('/bank/payout/status', { id: payout.body.id })).toEqual(notFound)
    // Known ids of another kind are not this kind's.
    expect(await alice('/bank/payout/status', { id: deposit.body.id })).toEqual(notFound)
    expect(service.calls.length).toBe(before)
    expect((await alice('/bank/deposit/status', { id: deposit.body.id })).status).toBe(200)
    expect((await alice('/bank/payout/status', { id: payout.body.id })).status).toBe(200)
    // Recorded with the status the service answered on creation.
    expect((await store.listPayments('alice')).find((p) => p.id === deposit.body.id)).toMatchObject({
      kind: 'bankDeposit',
      status: 'awaiting_funds',
      amount: '100',
      currency: 'EUR',
    })
  })

  it("a payout on another user's quote is refused, without limits too, and the service never hears of it", async () => {
    const { service, alice, bob } = kit()
    const quote = await alice('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '10' })
    const before = service.calls.length
    const own = account()
    expect(await bob('/bank/payout', { quoteId: quote.body.quoteId, accountId: own, beneficiary: { name: 'Bob', schema: 'bank_sepa' } })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field', message: 'quoteId: not a quote this backend gave this user' } },
    })
    expect(service.calls.length).toBe(before)
  })

  it('an id the service hands back that another user holds is not handed over', async () => {
    // A reused idempotency reference no longer does it (each user's is scoped: scopedReference.test.ts); a service that errs still could.
    const { lines, alice, bob } = kit()
    const [a, b] = [account(), account()]
    expect((await alice('/bank/deposit', { accountId: a, walletId: `w_${a}`, fiatCurrency: 'EUR', fiatAmount: '10.01' })).status).toBe(200)
    expect(await bob('/bank/deposit', { accountId: b, walletId: `w_${b}`, fiatCurrency: 'EUR', fiatAmount: '10.01' })).toEqual(notFound)
    expect(lines.join('\n')).toContain('bankDeposit bd_shared, which another user holds')
    expect(await store.ownerOf('bankDeposit', 'bd_shared')).toBe('alice')
  })
})

describe('accounts belong to the first user who pays with them', () => {
  it('another user presenting the account, or its wallet, is 403 account_not_owned, and nothing is forwarded', async () => {
    const { service, alice, bob } = kit()
    const acc = account()
    expect((await alice('/bank/deposit', { accountId: acc, walletId: `w_${acc}`, fiatCurrency: 'EUR', fiatAmount: '10' })).status).toBe(200)
    const before = service.calls.length
    const refused = { status: 403, body: { error: { code: 'account_not_owned', message: "accountId: this account is another user's." } } }
    expect(await bob('/bank/deposit', { accountId: acc, walletId: `w_${acc}`, fiatCurrency: 'EUR', fiatAmount: '10' })).toEqual(refused)
    expect(await bob('/bank/deposit', { accountId: `${acc}_bob`, walletId: `w_${acc}`, fiatCurrency: 'EUR', fiatAmount: '10' })).toEqual(refused)
    // The cash-out under another person's identity: Bob's beneficiary, Alice's account.
    expect(await bob('/bank/payout', { quoteId: 'q_any', accountId: acc, beneficiary: { name: 'Bob', schema: 'bank_sepa' } })).toEqual(refused)
    expect(service.calls.length).toBe(before)
  })

  it('binds before forwarding: of two users racing with one account exactly one reaches the service, and a refused creation keeps the binding', async () => {
    const { service, alice, bob } = kit()
    const acc = account()
    const body = { accountId: acc, walletId: `w_${acc}`, fiatCurrency: 'EUR', fiatAmount: '10' }
    const answers = await Promise.all([alice('/bank/deposit', body), bob('/bank/deposit', body)])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403])
    expect(service.paths().filter((p) => p === '/v1/bank/deposit')).toHaveLength(1)
    // The partner binds from its own records: an account bound at onboarding is refused to anyone else from the start.
    const own = account()
    await store.bindAccount('alice', own)
    expect((await bob('/bank/payout', { quoteId: 'q', accountId: own, beneficiary: { name: 'B', schema: 'bank_sepa' } })).status).toBe(403)
  })
})

describe('who the user is', () => {
  it('authenticate answers a user id: true, a number, an empty string or an object is refused, with one log line saying why', async () => {
    for (const answer of [true, 1, '', {}, null, false, undefined]) {
      const { service, lines, alice } = kit({ authenticate: () => answer as string })
      expect(await alice('/card/kyc-token', { walletAddress: wallet }), String(answer)).toMatchObject({
        status: 401,
        body: { error: { code: 'unauthenticated' } },
      })
      await alice('/card/kyc-token', { walletAddress: wallet })
      expect(service.calls).toHaveLength(0)
      expect(lines.filter((l) => l.includes("must return your user's id"))).toHaveLength(answer ? 1 : 0)
    }
  })

  it('allowAnonymous serves only the routes that create nothing; every other route still needs a user', async () => {
    const { service, anonymous } = kit({ allowAnonymous: true })
    expect((await anonymous('/limits')).status).toBe(200)
    for (const [path, body] of [
      ['/card/kyc-token', { walletAddress: wallet }],
      ['/card/purchase', purchase],
      ['/card/status', { id: 'cp_1' }],
      ['/bank/deposit', { accountId: 'a', walletId: 'w', fiatCurrency: 'EUR', fiatAmount: '10' }],
      ['/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '10' }],
      ['/deposit/status', { id: 'x' }],
    ] as const) {
      expect((await anonymous(path, body)).status, path).toBe(401)
    }
    expect(service.paths()).toEqual(['/v1/limits'])
    const onlyAnonymous = kit({ allowAnonymous: true, authenticate: undefined })
    expect((await onlyAnonymous.alice('/card/kyc-token', { walletAddress: wallet })).status).toBe(401)
    expect(onlyAnonymous.service.calls).toHaveLength(0)
  })
})
