// @vitest-environment node
// Hostile requests against the per-user idempotency reference and of what one user can learn or
// take of another's through the kit. The fake service keys idempotency on the reference alone (per
// key), as the contract says, and echoes it. Each test FAILS if the attack works.
import { beforeEach, describe, expect, it } from 'vitest'
import { createPartnerHandler, type PaymentStore } from '../../../../src/server/index'
import { paymentStoreForFile } from '../../helpers/paymentStore'

let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

type Sent = { path: string; body: Record<string, unknown> }
let sent: Sent[]
let byReference: Map<string, Record<string, unknown>>
let next: number
let override: ((path: string, body: Record<string, unknown>) => Record<string, unknown> | undefined) | undefined
let run = 0
beforeEach(() => {
  sent = []
  byReference = new Map()
  next = 0
  override = undefined
  run++
})

/** The service: creation idempotent on `reference` alone, the reference echoed; status reads answer what they name. */
async function service(input: string | URL, init: RequestInit): Promise<Response> {
  const path = new URL(String(input)).pathname
  const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>
  sent.push({ path, body })
  const forced = override?.(path, body)
  if (forced) return Response.json(forced)
  if (path.endsWith('/status')) return Response.json({ id: body.id, status: 'awaiting_funds' })
  if (path === '/v1/card/payout/card-session') return Response.json({ id: `cs_${run}_${next++}`, url: 'https://cards.example/p' })
  const reference = body.reference as string | undefined
  if (reference !== undefined && byReference.has(reference)) return Response.json(byReference.get(reference))
  const payment = {
    id: `pay_${run}_${next++}`,
    status: path === '/v1/bank/deposit' ? 'awaiting_funds' : 'pending',
    reference,
    details: { iban: 'DE00', reference: 'BANKREF' },
  }
  if (reference !== undefined) byReference.set(reference, payment)
  return Response.json(payment)
}

const handle = () =>
  createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    allowedOrigins: ['https://shop.example'],
    basePath: '/partner',
    authenticate: (token) => decodeURIComponent(token),
    store,
    fetch: service as unknown as typeof fetch,
    log: () => {},
  })

// The bearer token is the user's id, URI-encoded (a token is printable ASCII; ids need not be).
const post = (h: ReturnType<typeof handle>, user: string, path: string, body: unknown) =>
  h(
    new Request(`http://localhost/partner${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${encodeURIComponent(user)}` },
      body: JSON.stringify(body),
    }),
  )
const deposit = (h: ReturnType<typeof handle>, user: string, reference?: string) =>
  post(h, user, '/bank/deposit', {
    accountId: `acc_${run}_${user}`,
    walletId: `w_${run}_${user}`,
    fiatCurrency: 'EUR',
    fiatAmount: '10',
    ...(reference === undefined ? {} : { reference }),
  })

describe('the idempotency reference, scoped per user', { timeout: 60_000 }, () => {
  it("Alice first under the reference Bob's link carries: Bob still gets his own payment, and neither sees the other's", async () => {
    const h = handle()
    const alice = await (await deposit(h, 'alice', 'order-1')).json()
    const bobRes = await deposit(h, 'bob', 'order-1')
    expect(bobRes.status).toBe(200)
    const bob = await bobRes.json()
    expect(bob.id).not.toBe(alice.id)
    // Each gets their own reference back, not the one the service knows.
    expect([alice.reference, bob.reference]).toEqual(['order-1', 'order-1'])
    const refs = sent.map((s) => s.body.reference as string)
    expect(refs[0]).toMatch(/^[0-9a-f]{64}$/)
    expect(refs[0]).not.toBe(refs[1])
    expect(refs).not.toContain('order-1')
  })

  it('the same user again under the same reference: the same payment (idempotency kept)', async () => {
    const h = handle()
    const first = await (await deposit(h, 'carol', 'retry-1')).json()
    const again = await deposit(h, 'carol', 'retry-1')
    expect(again.status).toBe(200)
    expect((await again.json()).id).toBe(first.id)
  })

  it('pairs whose user and reference run together alike are different references to the service', async () => {
    const h = handle()
    const pairs: Array<[string, string]> = [
      ['u', 'ab'],
      ['ua', 'b'],
      ['u"', ',"ab'],
      ['u","', 'ab'],
      ['u\\', 'ab'],
      ['u', '\\ab'],
      ['u\u00e9', 'ab'],
      ['ue\u0301', 'ab'],
    ]
    for (const [user, reference] of pairs) await deposit(h, user, reference)
    const refs = sent.map((s) => s.body.reference)
    expect(new Set(refs).size).toBe(pairs.length)
  })

  it("a reference chosen as another user's scoped one is scoped again, never sent as given", async () => {
    const h = handle()
    await deposit(h, 'alice', 'order-9')
    const alicesScoped = sent[0].body.reference as string
    const res = await deposit(h, 'mallory', alicesScoped)
    expect(res.status).toBe(200)
    expect(sent[1].body.reference).not.toBe(alicesScoped)
    expect((await res.json()).id).not.toBe(byReference.get(alicesScoped)!.id)
  })

  it.each([
    ['65 characters', 'r'.repeat(65)],
    ['65 astral characters (the schema counts code points: 64 of them pass, as 128 UTF-16 units)', '\u{1F600}'.repeat(65)],
    ['empty', ''],
    ['a NUL', 'order\u0000'],
    ['a lone surrogate', 'order\ud800'],
    ['a number', 12345],
    ['an object', { toString: 'x' }],
  ])('a reference that is %s: 400 invalid_field, nothing forwarded', async (_, reference) => {
    const h = handle()
    const res = await post(h, 'dave', '/bank/deposit', {
      accountId: `acc_${run}_dave`,
      walletId: `w_${run}_dave`,
      fiatCurrency: 'EUR',
      fiatAmount: '10',
      reference,
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('invalid_field')
    expect(sent).toEqual([])
  })

  it("a reference of 64 characters (the contract's maximum), ASCII or astral, goes as 64 hex digits", async () => {
    const h = handle()
    expect((await deposit(h, 'erin', 'r'.repeat(64))).status).toBe(200)
    expect((await deposit(h, 'erin2', '\u{1F600}'.repeat(64))).status).toBe(200)
    expect(sent.map((s) => s.body.reference)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9a-f]{64}$/)])
  })

  it('bank payout and card payout references are scoped too', async () => {
    const h = handle()
    await post(h, 'alice', '/bank/payout', {
      quoteId: 'q1',
      accountId: `acc_${run}_alice`,
      beneficiary: { name: 'A', schema: 'bank_sepa', iban: 'DE00' },
      reference: 'same',
    })
    await post(h, 'bob', '/bank/payout', {
      quoteId: 'q1',
      accountId: `acc_${run}_bob`,
      beneficiary: { name: 'B', schema: 'bank_sepa', iban: 'DE00' },
      reference: 'same',
    })
    const session = await (await post(h, 'alice', '/card/payout/card-session', { returnUrl: 'https://shop.example/back' })).json()
    await post(h, 'alice', '/card/payout', { quoteId: 'q2', accountId: `acc_${run}_alice`, cardSession: session.id, reference: 'same' })
    const refs = sent.filter((s) => s.body.reference !== undefined).map((s) => s.body.reference)
    expect(refs).toHaveLength(3)
    expect(refs.every((r) => /^[0-9a-f]{64}$/.test(String(r)))).toBe(true)
    expect(refs[0]).not.toBe(refs[1])
  })
})

describe("what one user can learn or take of another's", { timeout: 60_000 }, () => {
  it("the service hands Bob's creation Alice's payment: Bob gets 404 with nothing of hers in it", async () => {
    const h = handle()
    const alice = await (await deposit(h, 'alice', 'secret-order-7')).json()
    const alicesRecord = byReference.get(sent[0].body.reference as string)!
    override = (path) => (path === '/v1/bank/deposit' ? alicesRecord : undefined)
    const res = await deposit(h, 'bob', 'bobs-order')
    const text = await res.text()
    expect(res.status).toBe(404)
    expect(text).not.toContain(alice.id)
    expect(text).not.toContain('secret-order-7')
    expect(text).not.toContain(sent[0].body.reference as string)
  })

  it("an echoed reference is given back only when it is the asker's own: another user's scoped reference is never mapped to their words", async () => {
    const h = handle()
    await deposit(h, 'alice', 'alices-words')
    const alicesScoped = sent[0].body.reference as string
    override = (path) => (path === '/v1/bank/deposit' ? { id: `pay_${run}_x`, status: 'awaiting_funds', reference: alicesScoped } : undefined)
    const text = await (await deposit(h, 'bob', 'bobs-words')).text()
    expect(text).not.toContain('alices-words')
  })

  it.each([
    ['as written', (id: string) => id],
    ['with a trailing space', (id: string) => `${id} `],
    ['upper case', (id: string) => id.toUpperCase()],
    ['with a zero-width space', (id: string) => `${id}\u200b`],
    ['decomposed', (id: string) => id.normalize('NFD')],
  ])("Bob reading Alice's payment %s: 404, the service never asked", async (_, spell) => {
    const h = handle()
    const alice = await (await deposit(h, 'alice', 'a-ref')).json()
    const before = sent.length
    const res = await post(h, 'bob', '/bank/deposit/status', { id: spell(alice.id) })
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('payment_not_found')
    expect(sent.length).toBe(before)
  })

  it("the service hands Bob a card session id Alice holds: Bob gets 404 and cannot pay out to Alice's card", async () => {
    const h = handle()
    const alices = await (await post(h, 'alice', '/card/payout/card-session', { returnUrl: 'https://shop.example/back' })).json()
    override = (path) => (path === '/v1/card/payout/card-session' ? { id: alices.id, url: 'https://cards.example/p' } : undefined)
    const res = await post(h, 'bob', '/card/payout/card-session', { returnUrl: 'https://shop.example/back' })
    expect(res.status).toBe(404)
    override = undefined
    const before = sent.length
    const payout = await post(h, 'bob', '/card/payout', { quoteId: 'q', accountId: `acc_${run}_bob2`, cardSession: alices.id })
    expect(payout.status).toBe(404)
    expect(sent.length).toBe(before)
  })

  it("a refusal names no other user: Bob using Alice's account is 403 without her id or payments in it", async () => {
    const h = handle()
    await deposit(h, 'alice', 'x')
    const res = await post(h, 'bob', '/bank/deposit', { accountId: `acc_${run}_alice`, walletId: `w_${run}_bob`, fiatCurrency: 'EUR', fiatAmount: '10' })
    const text = await res.text()
    expect(res.status).toBe(403)
    expect(text).not.toMatch(/alice/i)
  })
})
