// @vitest-environment node
// The card payout through the kit (issue #31, item 3, under issue #29's ownership rules): its
// quote, the hosted card page's session (recorded as its user's, returning only to the page that
// asked), creation from that session and a bound account, the status read, per-user limits, and
// the reconciler following what was created. The service here answers as the sandbox does
// (test/sandbox/routes/cardPayout.mjs, assumed-contract.md "Card payout: creation").
import { describe, expect, it, vi } from 'vitest'
import {
  type PartnerHandlerOptions,
  type PaymentStore,
  type PaymentUpdate,
  type PreviousState,
  createPartnerReads,
  createReconciler,
  createStatusFetcher,
  openPaymentStore,
} from '../../../src/server/index'
import { until } from './reconcile/fakeStatuses'
import { SHOP, testKit, notFound } from '../helpers/kit'
import { paymentStoreForFile } from '../helpers/paymentStore'

const WIDGET = 'https://widget.example'
const RETURN = `${SHOP}/checkout?flow=cardPayout`
let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

/** The service's card payout (the sandbox's answers and field names), counting every request. */
function cardPayoutService() {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  const statuses = new Map<string, Record<string, unknown>>()
  let n = 0
  let sessionId: string | undefined // a session id the service hands out again (set by a test)
  const answers: Record<string, (body: Record<string, unknown>) => Response> = {
    '/v1/card/payout/quote': (body) =>
      ['EUR', 'GBP', 'USD'].includes(body.fiatCurrency as string)
        ? Response.json({
            quoteId: `cq_${++n}${Math.random().toString(16).slice(2)}`,
            cryptoAmount: '110.336957',
            fiatAmount: (body.fiatAmount as string) ?? '38.91',
            rate: '0.92',
            providerFee: '1.01',
            ourFee: '0.50',
            expiresAt: '2030-01-01T00:00:00.000Z',
          })
        : Response.json({ error: { code: 'no_route', message: `Card payouts settle in EUR, GBP and USD only, not ${body.fiatCurrency}.` } }, { status: 422 }),
    '/v1/card/payout/card-session': () => {
      const id = sessionId ?? `cs_${++n}${Math.random().toString(16).slice(2)}`
      return Response.json({ id, url: `https://card.example/card-payout-page?id=${id}` })
    },
    '/v1/card/payout': (body) => {
      const id = `cpo_${++n}${Math.random().toString(16).slice(2)}`
      statuses.set(id, { id, status: 'pending', fiatCurrency: 'EUR', updatedAt: '2030-01-01T00:00:00.000Z' })
      return Response.json({
        id,
        depositAddress: `0x${'d'.repeat(40)}`,
        depositAmount: '110.336957',
        chain: 8453,
        status: 'pending',
        expiresAt: '2030-01-01T00:00:00.000Z',
        card: { brand: 'visa', last4: '4242' },
        quoteId: body.quoteId,
      })
    },
    '/v1/card/payout/status': (body) => {
      const record = statuses.get(body.id as string)
      return record ? Response.json(record) : Response.json({ error: { code: 'not_found', message: 'No such payout under the key.' } }, { status: 404 })
    },
  }
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname
    const body = init?.body ? JSON.parse(String(init.body)) : {}
    calls.push({ path, body })
    return answers[path]?.(body) ?? Response.json({ error: { code: 'not_found', message: 'no' } }, { status: 404 })
  }) as unknown as typeof globalThis.fetch
  return {
    fetch,
    calls,
    paths: () => calls.map((c) => c.path),
    /** The service moves a payout on. */
    move: (id: string, status: string, extra: Record<string, unknown> = {}) => statuses.set(id, { ...statuses.get(id), status, ...extra }),
    handOutSession: (id: string | undefined) => (sessionId = id),
  }
}

function kit(options: Partial<PartnerHandlerOptions> = {}) {
  const service = cardPayoutService()
  const { lines, as } = testKit({
    allowedOrigins: [SHOP, WIDGET],
    authenticate: (token) => ({ 'tok-alice': 'alice', 'tok-bob': 'bob' })[token] ?? (token.startsWith('user-') ? token : undefined),
    store,
    fetch: service.fetch,
    ...options,
  })
  return { service, lines, alice: as('tok-alice'), bob: as('tok-bob'), as }
}

type As = ReturnType<typeof kit>['alice']
const quoteBody = { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', fiatAmount: '100.00' }
let serial = 0
const account = () => `acc_cp_${++serial}_${Math.random().toString(36).slice(2)}`

/** Quote, card page session, creation: as the widget asks them, one user. */
async function cardPayout(as: As, accountId: string, quote: Record<string, unknown> = quoteBody) {
  const q = await as('/card/payout/quote', quote)
  const session = await as('/card/payout/card-session', { returnUrl: RETURN })
  const created = await as('/card/payout', { quoteId: q.body.quoteId, accountId, cardSession: session.body.id })
  return { quote: q, session, created }
}

describe('the card payout through the kit', () => {
  it("forwards quote, card page session, creation and status to the service's partner path, exactly the checked fields", async () => {
    const { service, alice } = kit()
    const acc = account()
    const { quote, session, created } = await cardPayout(alice, acc)
    expect(quote).toMatchObject({ status: 200, body: { quoteId: expect.stringMatching(/^cq_/), fiatAmount: '100.00' } })
    expect(session).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^cs_/), url: expect.stringContaining('https://card.example/') } })
    expect(created).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^cpo_/), status: 'pending', card: { last4: '4242' } } })
    expect(await alice('/card/payout/status', { id: created.body.id })).toMatchObject({ status: 200, body: { id: created.body.id, status: 'pending' } })
    expect(service.calls).toEqual([
      { path: '/v1/card/payout/quote', body: quoteBody },
      { path: '/v1/card/payout/card-session', body: { returnUrl: RETURN } },
      { path: '/v1/card/payout', body: { quoteId: quote.body.quoteId, accountId: acc, cardSession: session.body.id } },
      { path: '/v1/card/payout/status', body: { id: created.body.id } },
    ])
    // Recorded as Alice's, with the status the service answered on creation and the quote's amount.
    expect(await store.ownerOf('cardPayout', created.body.id)).toBe('alice')
    expect((await store.listPayments('alice')).find((p) => p.id === created.body.id)).toMatchObject({
      kind: 'cardPayout',
      status: 'pending',
      amount: '100.00',
      currency: 'EUR',
    })
    // The service's 422 no_route (a currency cards are not paid out in) passes through as it is.
    expect(await alice('/card/payout/quote', { ...quoteBody, fiatCurrency: 'BRL' })).toMatchObject({ status: 422, body: { error: { code: 'no_route' } } })
  })

  it('refuses a quote or a creation outside the contract, naming the field, before anything is forwarded', async () => {
    const { service, alice } = kit()
    const refused = async (path: string, body: unknown, message: string) =>
      expect(await alice(path, body), JSON.stringify(body)).toEqual({ status: 400, body: { error: { code: 'invalid_field', message } } })
    await refused('/card/payout/quote', { ...quoteBody, cryptoAmount: '10' }, 'cryptoAmount: send cryptoAmount or fiatAmount, exactly one of the two')
    await refused(
      '/card/payout/quote',
      { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR' },
      'cryptoAmount: send cryptoAmount or fiatAmount, exactly one of the two',
    )
    await refused('/card/payout/quote', { ...quoteBody, country: 'DE' }, 'country: not a field of this request')
    await refused('/card/payout/quote', { ...quoteBody, fiatAmount: 100 }, 'fiatAmount: must be a string')
    await refused('/card/payout/quote', { ...quoteBody, chain: '8453' }, 'chain: must be a number')
    await refused('/card/payout/quote', { ...quoteBody, fiatCurrency: 'eur' }, 'fiatCurrency: must be an ISO 4217 code like "EUR"')
    await refused('/card/payout/card-session', {}, 'returnUrl: required')
    await refused('/card/payout/card-session', { returnUrl: RETURN, cancelUrl: RETURN }, 'cancelUrl: not a field of this request')
    await refused('/card/payout', { quoteId: 'cq_1', accountId: 'a' }, 'cardSession: required')
    await refused('/card/payout', { quoteId: 'cq_1', accountId: 'a', cardSession: 'cs_1', card: { number: '4242' } }, 'card: not a field of this request')
    await refused(
      '/card/payout',
      { quoteId: 'cq_1', accountId: 'a', cardSession: 'cs_1', reference: 'r'.repeat(65) },
      'reference: must be at most 64 characters',
    )
    await refused('/card/payout/status', { id: '' }, 'id: must not be empty')
    expect(service.calls).toHaveLength(0)
  })

  it('the card page returns only to a page of the origin that asked: any other returnUrl is 400 and the service never hears of it', async () => {
    const { service, alice, as } = kit()
    const fromWidget = as('tok-alice', WIDGET)
    const serverSide = as('tok-alice', null)
    for (const returnUrl of [
      'https://evil.example/steal',
      'https://shop.example.evil.example/',
      'https://evil.example/?next=https://shop.example/',
      'http://shop.example/checkout', // the allowed origin is https
      'https://shop.example:8443/checkout',
      'https://shop.example@evil.example/',
      `${WIDGET}/widget.html`, // an allowed origin, but not the page that asked
      'javascript:alert(1)',
      '/relative',
    ]) {
      expect(await alice('/card/payout/card-session', { returnUrl }), returnUrl).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_field', message: expect.stringMatching(/^returnUrl: /) } },
      })
    }
    // A caller without Origin (a server): any page of allowedOrigins, and nothing else.
    expect((await serverSide('/card/payout/card-session', { returnUrl: 'https://evil.example/' })).status).toBe(400)
    expect(service.calls).toHaveLength(0)
    expect((await fromWidget('/card/payout/card-session', { returnUrl: `${WIDGET}/widget.html?flow=cardPayout` })).status).toBe(200)
    expect((await serverSide('/card/payout/card-session', { returnUrl: `${WIDGET}/w` })).status).toBe(200)
    expect((await alice('/card/payout/card-session', { returnUrl: `${SHOP}/` })).status).toBe(200)
    expect(service.paths()).toEqual(Array(3).fill('/v1/card/payout/card-session'))
  })
})

describe('ownership of a card payout and of its card page session', () => {
  it("Alice cannot read Bob's card payout: 404, in any spelling, and the service never asked", async () => {
    const { service, alice, bob } = kit()
    const { created } = await cardPayout(bob, account())
    expect(created.status).toBe(200)
    const before = service.calls.length
    for (const id of [created.body.id, created.body.id.toUpperCase(), ` ${created.body.id}`, 'cpo_never_created']) {
      expect(await alice('/card/payout/status', { id }), id).toEqual(notFound)
    }
    // A bank payout's status read is not a card payout's, nor the other way round.
    expect(await bob('/bank/payout/status', { id: created.body.id })).toEqual(notFound)
    await store.recordPayment({ kind: 'payout', id: 'po_bob_bank', userId: 'bob' })
    expect(await bob('/card/payout/status', { id: 'po_bob_bank' })).toEqual(notFound)
    expect(service.calls).toHaveLength(before)
    expect((await bob('/card/payout/status', { id: created.body.id })).status).toBe(200)
  })

  it("Alice cannot create with Bob's card session (404), nor one the kit never opened, and binds nothing on the way", async () => {
    const { service, alice, bob } = kit()
    const bobs = await bob('/card/payout/card-session', { returnUrl: RETURN })
    expect(bobs.status).toBe(200)
    const q = await alice('/card/payout/quote', quoteBody)
    const acc = account()
    const before = service.calls.length
    expect(await alice('/card/payout', { quoteId: q.body.quoteId, accountId: acc, cardSession: bobs.body.id })).toEqual(notFound)
    expect(await alice('/card/payout', { quoteId: q.body.quoteId, accountId: acc, cardSession: 'cs_made_up' })).toEqual(notFound)
    expect(await alice('/card/payout', { quoteId: q.body.quoteId, accountId: acc, cardSession: bobs.body.id.toUpperCase() })).toEqual(notFound)
    expect(service.calls).toHaveLength(before)
    // The refused attempts bound nothing: the account is still free for anyone.
    expect(await store.bindAccount('carol', acc)).toBe(true)
    // Bob's session is still Bob's.
    const bobQuote = await bob('/card/payout/quote', quoteBody)
    expect((await bob('/card/payout', { quoteId: bobQuote.body.quoteId, accountId: account(), cardSession: bobs.body.id })).status).toBe(200)
  })

  it("Alice cannot create with Bob's accountId (403 account_not_owned), with her own session, and nothing is forwarded", async () => {
    const { service, alice, bob } = kit()
    const bobsAccount = account()
    expect((await cardPayout(bob, bobsAccount)).created.status).toBe(200)
    const q = await alice('/card/payout/quote', quoteBody)
    const mine = await alice('/card/payout/card-session', { returnUrl: RETURN })
    const before = service.calls.length
    expect(await alice('/card/payout', { quoteId: q.body.quoteId, accountId: bobsAccount, cardSession: mine.body.id })).toEqual({
      status: 403,
      body: { error: { code: 'account_not_owned', message: "accountId: this account is another user's." } },
    })
    expect(service.calls).toHaveLength(before)
    // The account a card payout first named is bound: a bank payout with it is refused too.
    expect((await alice('/bank/payout', { quoteId: 'q', accountId: bobsAccount, beneficiary: { name: 'A', schema: 'bank_sepa' } })).status).toBe(403)
  })

  it('a session id the service hands out that another user holds is not handed over', async () => {
    const { service, lines, alice, bob } = kit()
    service.handOutSession('cs_shared')
    expect((await alice('/card/payout/card-session', { returnUrl: RETURN })).body.id).toBe('cs_shared')
    expect(await bob('/card/payout/card-session', { returnUrl: RETURN })).toEqual(notFound)
    expect(lines.join('\n')).toContain('cs_shared')
    const q = await bob('/card/payout/quote', quoteBody)
    expect(await bob('/card/payout', { quoteId: q.body.quoteId, accountId: account(), cardSession: 'cs_shared' })).toEqual(notFound)
  })
})

describe('userLimits for card payouts', () => {
  it('counts card payouts per user per day and their quotes against maxAmount; over either is 429, nothing forwarded', async () => {
    const { service, as } = kit({ userLimits: { cardPayout: { perDay: 2, maxAmount: { EUR: '150' } } } })
    const created = async (user: string, fiatAmount: string) => (await cardPayout(as(user), `acc_${user}`, { ...quoteBody, fiatAmount })).created
    expect((await created('user-lim-a', '100.00')).status).toBe(200)
    const before = service.paths().filter((p) => p === '/v1/card/payout').length
    expect(await created('user-lim-a', '60.00')).toEqual({
      status: 429,
      body: { error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 150 EUR per day." } },
    })
    expect((await created('user-lim-a', '50.00')).status).toBe(200)
    expect(await created('user-lim-a', '0.01')).toEqual({
      status: 429,
      body: { error: { code: 'user_limit_reached', message: "This user's limit is reached: at most 2 per day." } },
    })
    expect(service.paths().filter((p) => p === '/v1/card/payout')).toHaveLength(before + 1)
    // Another user is counted apart; a quote this kit never gave that user is refused under a ceiling.
    expect((await created('user-lim-b', '150.00')).status).toBe(200)
    const session = await as('user-lim-c')('/card/payout/card-session', { returnUrl: RETURN })
    expect(await as('user-lim-c')('/card/payout', { quoteId: 'cq_made_up', accountId: 'acc_user-lim-c', cardSession: session.body.id })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field', message: 'quoteId: not a quote this backend gave this user' } },
    })
  })
})

describe('the reconciler follows a card payout created through the kit', () => {
  it('reports each change once, in order; sent is not final, settled is, and an underfunded payout says what landed', { timeout: 20_000 }, async () => {
    const { service, as } = kit()
    const { created } = await cardPayout(as('user-rec'), account())
    const id = created.body.id as string
    const other = (await cardPayout(as('user-rec'), account())).created.body.id as string
    const deliveries: Array<{ payment: PaymentUpdate; previous: PreviousState | undefined }> = []
    const reconciler = createReconciler({
      store,
      fetchStatus: createStatusFetcher({ apiBase: 'https://api.example', apiKey: 'sk_test_key', fetch: service.fetch }),
      onUpdate: (payment, previous) => void deliveries.push({ payment, previous }),
      schedule: 'fixed',
      requestsPerSecond: 200,
      pollIntervalMs: 20,
      maxPollIntervalMs: 40,
      idleMs: 10,
      log: () => {},
    })
    const seen = (pid: string) =>
      deliveries.filter((d) => d.payment.id === pid).map((d) => `${d.previous?.status ?? '∅'}→${d.payment.status}${d.payment.final ? ' (final)' : ''}`)
    const looks = (pid: string) => service.calls.filter((c) => c.path === '/v1/card/payout/status' && c.body.id === pid).length
    reconciler.start()
    try {
      await until(() => looks(id) >= 2, 5000, 'a look at the card payout')
      // Underfunded: what arrived is converted and paid out, lower than the quote's 100.00.
      for (const [status, extra] of [
        ['converting', { depositTxHash: `0x${'1'.repeat(64)}` }],
        ['sent', { fiatAmount: '80.00' }],
        ['settled', {}],
      ] as const) {
        service.move(id, status, extra)
        await until(() => seen(id).at(-1)?.includes(`→${status}`) ?? false, 5000, status)
      }
      service.move(other, 'rejected', { reason: 'card declined' })
      await until(() => seen(other).length === 1, 5000, 'the rejected one')
      const lookedAt = looks(id) + looks(other)
      await new Promise((resolve) => setTimeout(resolve, 300)) // a repeat, or another look, would show now
      expect(seen(id)).toEqual(['pending→converting', 'converting→sent', 'sent→settled (final)'])
      expect(seen(other)).toEqual(['pending→rejected (final)'])
      expect(looks(id) + looks(other)).toBe(lookedAt)
      expect(deliveries.find((d) => d.payment.id === id && d.payment.final)?.payment).toMatchObject({
        kind: 'cardPayout',
        userId: 'user-rec',
        record: { fiatAmount: '80.00', fiatCurrency: 'EUR' },
      })
    } finally {
      await reconciler.stop()
    }
    // The server's own read, parsed with the contract's schema.
    const reads = createPartnerReads({ apiBase: 'https://api.example', apiKey: 'sk_test_key', fetch: service.fetch })
    expect(await reads.cardPayout(id)).toMatchObject({ id, status: 'settled', fiatAmount: '80.00' })
  })
})

// Issue 39, item 21: "A payout created without quoteId is repriced at execution" (partner-api.md,
// card payout). Without a quote the creation names what a quote would (the asset, the chain, the
// currency paid out and one amount: docs/assumptions.md); the kit's own rules still hold.
describe('a card payout without a quote (priced on arrival)', () => {
  const priced = { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', fiatAmount: '40.00' }
  async function session(as: As) {
    return (await as('/card/payout/card-session', { returnUrl: RETURN })).body.id as string
  }

  it("is forwarded with exactly its checked fields, and recorded as the user's with the amount it names", async () => {
    const { service, alice } = kit()
    const acc = account()
    const cardSession = await session(alice)
    const created = await alice('/card/payout', { ...priced, accountId: acc, cardSession })
    expect(created).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^cpo_/), status: 'pending' } })
    expect(service.calls.at(-1)).toEqual({ path: '/v1/card/payout', body: { ...priced, accountId: acc, cardSession } })
    expect(await store.ownerOf('cardPayout', created.body.id)).toBe('alice')
    expect((await store.listPayments('alice')).find((p) => p.id === created.body.id)).toMatchObject({ amount: '40.00', currency: 'EUR' })
  })

  it('names a quote or the fields of one, never both, never neither, exactly one amount', async () => {
    const { service, alice } = kit()
    const base = { accountId: 'a', cardSession: 'cs_1' }
    const refused = async (body: unknown, message: string) =>
      expect(await alice('/card/payout', body), JSON.stringify(body)).toEqual({ status: 400, body: { error: { code: 'invalid_field', message } } })
    const neither = 'quoteId: required, or without a quote cryptoCurrency, chain, fiatCurrency and one amount'
    await refused(base, neither)
    await refused({ ...base, fiatCurrency: 'EUR', fiatAmount: '10' }, neither)
    await refused({ ...base, quoteId: 'cq_1', ...priced }, 'cryptoCurrency: not with a quoteId (the quote names it)')
    await refused({ ...base, ...priced, cryptoAmount: '10' }, 'cryptoAmount: send cryptoAmount or fiatAmount, exactly one of the two')
    await refused({ ...base, ...priced, fiatCurrency: 'eur' }, 'fiatCurrency: must be an ISO 4217 code like "EUR"')
    expect(service.calls).toHaveLength(0)
  })

  it("the user's limits hold: its amount counts, and an amount the limit cannot count is refused under one", async () => {
    const { service, as } = kit({ userLimits: { cardPayout: { maxAmount: { EUR: '50.00' } } } })
    // A user of this test alone: the store counts every earlier payout of the file's users.
    const alice = as(`user-unquoted-${Math.random().toString(36).slice(2)}`)
    const acc = account()
    expect((await alice('/card/payout', { ...priced, accountId: acc, cardSession: await session(alice) })).status).toBe(200)
    expect(await alice('/card/payout', { ...priced, accountId: acc, cardSession: await session(alice) })).toMatchObject({
      status: 429,
      body: { error: { code: 'user_limit_reached' } },
    })
    const { fiatAmount: _, ...crypto } = priced
    expect(await alice('/card/payout', { ...crypto, cryptoAmount: '10', accountId: acc, cardSession: await session(alice) })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field', message: "fiatAmount: required under this user's limit in EUR (or a quoteId)" } },
    })
    expect(service.paths().filter((p) => p === '/v1/card/payout')).toHaveLength(1)
  })

  it("ownership holds: another user's card session or account is refused before the service hears of it", async () => {
    const { service, alice, bob } = kit()
    const acc = account()
    const bobs = await session(bob)
    expect(await alice('/card/payout', { ...priced, accountId: acc, cardSession: bobs })).toEqual(notFound)
    expect((await alice('/card/payout', { ...priced, accountId: acc, cardSession: await session(alice) })).status).toBe(200)
    expect(await bob('/card/payout', { ...priced, accountId: acc, cardSession: bobs })).toMatchObject({
      status: 403,
      body: { error: { code: 'account_not_owned' } },
    })
    expect(service.paths().filter((p) => p === '/v1/card/payout')).toHaveLength(1)
  })
})
