// @vitest-environment node
// The idempotency reference is scoped to its user before it reaches the service (issue 37,
// finding 5): forwarded unscoped, Alice creating first under the reference Bob's signed link
// carries made the service hand back Alice's payment to Bob, and the kit answered Bob 404.
import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import type { PaymentStore } from '../../../src/server/index'
import { SHOP, testKit } from '../helpers/kit'
import { paymentStoreForFile } from '../helpers/paymentStore'

let store: PaymentStore
paymentStoreForFile((opened) => (store = opened))

let n = 0
/** A service idempotent by reference, as the contract's: a creation under a known reference answers that payment again, echoing its reference. */
function idempotentService() {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  const byReference = new Map<string, Record<string, unknown>>()
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>
    calls.push({ path, body })
    if (path === '/v1/card/payout/card-session') return Response.json({ id: `cs_ref_${++n}`, url: 'https://card.example/s' })
    const key = `${path} ${body.reference}`
    if (body.reference !== undefined && byReference.has(key)) return Response.json(byReference.get(key))
    const created = {
      id: `${path.split('/')[2]}_ref_${++n}`,
      status: path === '/v1/bank/deposit' ? 'awaiting_funds' : 'pending',
      ...(body.reference === undefined ? {} : { reference: body.reference }),
    }
    if (body.reference !== undefined) byReference.set(key, created)
    return Response.json(created)
  }) as unknown as typeof globalThis.fetch
  return { fetch, calls }
}

function kit() {
  const service = idempotentService()
  const { lines, as } = testKit({ store, fetch: service.fetch })
  return { service, lines, as: (user: string) => as(user) }
}

const scoped = (user: string, reference: string) =>
  createHash('sha256')
    .update(JSON.stringify([user, reference]))
    .digest('hex')

/** Each route that forwards a reference, with a body for this user (a card payout names a session the user opened). */
const creations: Array<
  [
    path: string,
    kind: 'bankDeposit' | 'payout' | 'cardPayout',
    body: (as: ReturnType<ReturnType<typeof kit>['as']>, user: string, reference: string) => Promise<Record<string, unknown>>,
  ]
> = [
  [
    '/bank/deposit',
    'bankDeposit',
    async (_as, user, reference) => ({ accountId: `acc_${user}`, walletId: `w_${user}`, fiatCurrency: 'EUR', fiatAmount: '10', reference }),
  ],
  [
    '/bank/payout',
    'payout',
    async (_as, user, reference) => ({ quoteId: 'q_1', accountId: `acc_${user}`, beneficiary: { name: 'Ada', schema: 'bank_sepa' }, reference }),
  ],
  [
    '/card/payout',
    'cardPayout',
    async (as, user, reference) => ({
      quoteId: 'cq_1',
      accountId: `acc_${user}`,
      cardSession: (await as('/card/payout/card-session', { returnUrl: `${SHOP}/back` })).body.id,
      reference,
    }),
  ],
]

describe('the idempotency reference is scoped to its user', () => {
  for (const [path, kind, body] of creations) {
    it(`${path}: Alice creating first under Bob's reference does not block Bob, and Bob's retry is his one payment`, async () => {
      const { service, as } = kit()
      const [alice, bob] = [`alice-${kind}`, `bob-${kind}`]
      const reference = `order-42-${kind}`
      const first = await as(alice)(path, await body(as(alice), alice, reference))
      expect(first).toMatchObject({ status: 200, body: { id: expect.any(String) } })
      const bobs = await as(bob)(path, await body(as(bob), bob, reference))
      expect(bobs).toMatchObject({ status: 200, body: { id: expect.any(String) } })
      expect(bobs.body.id).not.toBe(first.body.id)
      // The same user asking again under the same reference: the same payment (idempotency holds).
      const again = await as(bob)(path, await body(as(bob), bob, reference))
      expect(again).toMatchObject({ status: 200, body: { id: bobs.body.id } })
      // What the service heard: a one-way value of (user, reference), 64 hex digits, never the reference itself.
      const sent = service.calls.filter((c) => c.path === `/v1${path}`).map((c) => c.body.reference)
      expect(sent).toEqual([scoped(alice, reference), scoped(bob, reference), scoped(bob, reference)])
      for (const value of sent) expect(value).toMatch(/^[0-9a-f]{64}$/)
      // The service's echo of the reference comes back as the user's own.
      expect(bobs.body.reference).toBe(reference)
      // Recorded with the payment, for the partner to reconcile: the user's reference and what was sent.
      expect(await store.ownerOf(kind, bobs.body.id)).toBe(bob)
      expect(await store.detailsOf(kind, bobs.body.id)).toEqual({ reference, sentReference: scoped(bob, reference) })
      expect(await store.detailsOf(kind, first.body.id)).toEqual({ reference, sentReference: scoped(alice, reference) })
    })
  }

  it('a creation without a reference sends none, and records none', async () => {
    const { service, as } = kit()
    const made = await as('carol-ref')('/bank/deposit', { accountId: 'acc_carol-ref', walletId: 'w_carol-ref', fiatCurrency: 'EUR', fiatAmount: '10' })
    expect(made.status).toBe(200)
    expect(service.calls[0].body).not.toHaveProperty('reference')
    expect(await store.detailsOf('bankDeposit', made.body.id)).toBeUndefined()
  })

  it('the pair is encoded without ambiguity: ("a:b", "c") and ("a", "b:c") are different references', () => {
    expect(scoped('a:b', 'c')).not.toBe(scoped('a', 'b:c'))
  })
})
