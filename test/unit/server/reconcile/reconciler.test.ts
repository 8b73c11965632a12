// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createReconciler,
  cryptoDepositId,
  openPaymentStore,
  StatusFetchError,
  type PaymentStore,
  type PaymentUpdate,
  type PreviousState,
  type Reconciler,
  type ReconcilerOptions,
} from '../../../../src/server/index'
import { claimDuePayments, recordObservation } from '../../../../src/server/store/lookQueue'
import { busiestWindow, everyKind, exactlyOnceFigures, fakeStatuses, until, type FakeStatuses } from './fakeStatuses'

let store: PaymentStore
beforeAll(async () => {
  store = await openPaymentStore()
}, 60_000)
afterAll(() => store?.close())

type Delivery = { payment: PaymentUpdate; previous: PreviousState | undefined; at: number }
let fake: FakeStatuses
let deliveries: Delivery[]
let logs: string[]
let running: Reconciler[]
beforeEach(async () => {
  await store.db.query('DELETE FROM stablecoin_widget.changes')
  await store.db.query('DELETE FROM stablecoin_widget.payments')
  fake = fakeStatuses()
  deliveries = []
  logs = []
  running = []
  return async () => {
    await Promise.all(running.map((r) => r.stop()))
  }
})

function start(options: Partial<ReconcilerOptions> = {}): Reconciler {
  const reconciler = createReconciler({
    store,
    fetchStatus: fake.fetchStatus,
    onUpdate: (payment, previous) => void deliveries.push({ payment, previous, at: Date.now() }),
    // The pace these tests were written for (in real time: milliseconds); schedule.test.ts holds the default one.
    schedule: 'fixed',
    requestsPerSecond: 200,
    pollIntervalMs: 20,
    maxPollIntervalMs: 40,
    idleMs: 10,
    retryBaseMs: 50,
    log: (line) => logs.push(line),
    ...options,
  })
  reconciler.start()
  running.push(reconciler)
  return reconciler
}

const seen = (id: string) => deliveries.filter((d) => d.payment.id === id).map((d) => `${d.previous?.status ?? '∅'}→${d.payment.status}`)
const asked = (id: string) => fake.requests.filter((r) => r.id === id).length

describe('reconciler', { timeout: 20_000 }, () => {
  it('tells each status change once, in order, with the status before, and stops asking once final', async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_a', userId: 'alice', status: 'pending' })
    fake.set('payout', 'po_a', 'pending')
    start()
    await until(() => asked('po_a') >= 3, 5000, 'three looks at po_a')
    expect(deliveries).toEqual([]) // still the status it was created with
    for (const status of ['converting', 'sent', 'settled']) {
      fake.set('payout', 'po_a', status, { fiatAmount: '9.50', fiatCurrency: 'EUR' })
      await until(() => seen('po_a').at(-1)?.endsWith(status) ?? false, 5000, status)
    }
    expect(seen('po_a')).toEqual(['pending→converting', 'converting→sent', 'sent→settled'])
    const last = deliveries.at(-1)!
    expect(last.payment).toMatchObject({ kind: 'payout', id: 'po_a', userId: 'alice', status: 'settled', final: true, record: { fiatAmount: '9.50' } })
    expect(last.previous).toEqual({ status: 'sent', record: { id: 'po_a', status: 'sent', fiatAmount: '9.50', fiatCurrency: 'EUR' } })
    const looks = asked('po_a')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(asked('po_a')).toBe(looks)
  })

  it('follows a payment created without a status, and a crypto deposit by its provider and receipt', async () => {
    const txHash = `0x${'ab'.repeat(32)}`
    const id = cryptoDepositId('relay', txHash.toUpperCase().replace('0X', '0x'))
    const details = { provider: 'relay', receipt: { txHash, logs: [] } }
    await store.recordPayment({ kind: 'bankDeposit', id: 'bd_a', userId: 'bob' })
    await store.recordPayment({ kind: 'deposit', id, userId: 'bob', details })
    fake.set('bankDeposit', 'bd_a', 'awaiting_funds')
    fake.set('deposit', id, 'done', { txHashes: { delivered: txHash } })
    let detailsSeen: unknown
    start({ fetchStatus: (kind, pid, more) => ((detailsSeen = kind === 'deposit' ? more : detailsSeen), fake.fetchStatus(kind, pid, more)) })
    await until(() => deliveries.length === 2, 5000, 'two deliveries')
    expect(id).toBe(`relay:${txHash}`)
    expect(detailsSeen).toEqual(details)
    expect(seen('bd_a')).toEqual(['∅→awaiting_funds'])
    expect(deliveries.find((d) => d.payment.kind === 'deposit')?.payment).toMatchObject({ status: 'done', final: true, userId: 'bob' })
  })

  it('brings every kind (card, bank deposit, payout, card payout, crypto deposit) to its final status through onUpdate exactly once', async () => {
    const world = everyKind()
    await world.record(store, 'frank')
    start({
      fetchStatus: async (kind, id) => world.answer(kind, id),
      onUpdate: (payment, previous) => {
        deliveries.push({ payment, previous, at: Date.now() })
        world.delivered(payment.kind, payment.id, payment.status)
      },
    })
    await until(() => deliveries.length >= world.total, 10_000, 'every change of every kind')
    await new Promise((resolve) => setTimeout(resolve, 300)) // a repeat would show now
    for (const { kind, id } of world.payments) {
      expect(seen(id), `${kind} ${id}`).toEqual(world.expected(kind))
      expect(
        deliveries.filter((d) => d.payment.id === id && d.payment.final).map((d) => d.payment.status),
        `${kind} ${id}`,
      ).toHaveLength(1)
    }
    const figures = await exactlyOnceFigures(
      'PGlite, one reconciler',
      store.db,
      world.payments.map((p) => p.id),
      deliveries.map((d) => d.payment.changeId),
    )
    expect(figures).toEqual({ seen: world.total, delivered: world.total, duplicates: 0, undelivered: 0 })
  })

  it('never delivers an answer outside the contract, and keeps asking', async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_b', userId: 'alice', status: 'pending' })
    fake.set('payout', 'po_b', 'paid_twice')
    start()
    await until(() => asked('po_b') >= 2, 5000, 'two looks at po_b')
    expect(deliveries).toEqual([])
    expect(logs.some((line) => line.includes('po_b') && line.includes('does not match the contract'))).toBe(true)
    fake.set('payout', 'po_b', 'converting')
    await until(() => deliveries.length === 1, 5000, 'the valid answer')
    expect(seen('po_b')).toEqual(['pending→converting'])
  })

  it("never records an answer about another payment: a status record naming another id is not this payment's", async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_mine', userId: 'alice', status: 'pending' })
    // Someone else's settled payout, answered for Alice's (a mixed-up cache or proxy).
    fake.set('payout', 'po_mine', 'settled', { id: 'po_someone_else' })
    start()
    await until(() => asked('po_mine') >= 2, 5000, 'two looks at po_mine')
    expect(deliveries).toEqual([])
    expect(logs.some((line) => line.includes('po_mine') && line.includes('po_someone_else'))).toBe(true)
    fake.set('payout', 'po_mine', 'converting')
    await until(() => deliveries.length === 1, 5000, 'the answer about po_mine')
    expect(seen('po_mine')).toEqual(['pending→converting'])
  })

  it('retries a throwing onUpdate with growing waits, and holds the later changes of that payment until it succeeds', async () => {
    await store.recordPayment({ kind: 'cardPayout', id: 'cp_a', userId: 'carol', status: 'pending' })
    fake.set('cardPayout', 'cp_a', 'converting')
    const attempts: Array<{ at: number; status: string }> = []
    start({
      retryBaseMs: 150,
      onUpdate: (payment, previous) => {
        attempts.push({ at: Date.now(), status: payment.status })
        if (attempts.length <= 2) throw new Error('partner database down')
        deliveries.push({ payment, previous, at: Date.now() })
      },
    })
    await until(() => attempts.length === 1, 5000, 'the first attempt')
    fake.set('cardPayout', 'cp_a', 'sent') // observed while the first change is still failing
    await until(() => deliveries.length === 2, 5000, 'both changes')
    expect(attempts.map((a) => a.status)).toEqual(['converting', 'converting', 'converting', 'sent'])
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(140)
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(290)
    expect(seen('cp_a')).toEqual(['pending→converting', 'converting→sent'])
    expect(logs.filter((line) => line.includes('partner database down'))).toHaveLength(2)
  })

  it('stops following a payment that is still not final after followForMs, and says so', async () => {
    await store.recordPayment({ kind: 'bankDeposit', id: 'bd_old', userId: 'alice', status: 'expired' })
    await store.recordPayment({ kind: 'bankDeposit', id: 'bd_new', userId: 'alice', status: 'expired' })
    await store.db.query(`UPDATE stablecoin_widget.payments SET created_at = now() - interval '2 days' WHERE id = 'bd_old'`)
    fake.set('bankDeposit', 'bd_old', 'expired')
    fake.set('bankDeposit', 'bd_new', 'expired')
    start({ followForMs: 24 * 3_600_000 })
    await until(() => asked('bd_new') >= 2, 5000, 'two looks at bd_new')
    expect(asked('bd_old')).toBe(0)
    expect(logs).toContain('bankDeposit bd_old is no longer followed: still expired after 86400000 ms')
  })

  it("keeps its requests within the rate it is given, and waits as long as the service's 429 says", async () => {
    for (let i = 0; i < 30; i++) {
      await store.recordPayment({ kind: 'payout', id: `po_r${i}`, userId: 'dave', status: 'pending' })
      fake.set('payout', `po_r${i}`, 'pending')
    }
    let refusedAt = 0
    start({
      requestsPerSecond: 20,
      fetchStatus: async (kind, id, details) => {
        if (!refusedAt && fake.requests.length === 10) {
          refusedAt = Date.now()
          fake.requests.push({ at: refusedAt, kind, id })
          throw new StatusFetchError('POST /v1/bank/payout/status: the service answered 429', 429, 400)
        }
        return fake.fetchStatus(kind, id, details)
      },
    })
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const times = fake.requests.map((r) => r.at)
    expect(busiestWindow(times, 1000)).toBeLessThanOrEqual(20)
    expect(times.length).toBeGreaterThanOrEqual(10) // it did keep asking (fewer on a busy machine)
    expect(times.filter((t) => t > refusedAt && t < refusedAt + 400)).toEqual([])
  })

  it('lets two reconcilers on one store deliver each change of every kind exactly once', async () => {
    const world = everyKind()
    await world.record(store, 'erin')
    const options = {
      fetchStatus: async (kind: string, id: string) => world.answer(kind, id),
      onUpdate: (payment: PaymentUpdate, previous: PreviousState | undefined) => {
        deliveries.push({ payment, previous, at: Date.now() })
        world.delivered(payment.kind, payment.id, payment.status)
      },
    }
    start(options)
    start(options)
    await until(() => deliveries.length >= world.total, 10_000, 'every change of every kind')
    await new Promise((resolve) => setTimeout(resolve, 300))
    for (const { kind, id } of world.payments) expect(seen(id), `${kind} ${id}`).toEqual(world.expected(kind))
    const figures = await exactlyOnceFigures(
      'PGlite, two reconcilers on one store',
      store.db,
      world.payments.map((p) => p.id),
      deliveries.map((d) => d.payment.changeId),
    )
    expect(figures).toEqual({ seen: world.total, delivered: world.total, duplicates: 0, undelivered: 0 })
  })
})

describe('leases on changes', () => {
  it('are renewed before each delivery: a slow batch never delivers a change another instance took over', { timeout: 20_000 }, async () => {
    const ids = Array.from({ length: 15 }, (_, i) => `po_s${i}`)
    for (const id of ids) {
      await store.recordPayment({ kind: 'payout', id, userId: 'alice', status: 'converting' })
      fake.set('payout', id, 'converting')
      // Changes already in the outbox, so that one round claims them all.
      await store.db.query(
        `INSERT INTO stablecoin_widget.changes (kind, id, status, previous_status, record, final) VALUES ('payout', $1, 'converting', 'pending', $2::jsonb, false)`,
        [id, JSON.stringify({ id, status: 'converting' })],
      )
    }
    const slowly = async (payment: PaymentUpdate, previous: PreviousState | undefined) => {
      await new Promise((resolve) => setTimeout(resolve, 100))
      deliveries.push({ payment, previous, at: Date.now() })
    }
    // The first claims every change at once; the second starts once they are all claimed.
    start({ onUpdate: slowly, deliveryLeaseMs: 1000 })
    await until(
      async () => (await store.db.query('SELECT 1 FROM stablecoin_widget.changes WHERE lease_owner IS NOT NULL')).rows.length === ids.length,
      5000,
      'all changes claimed',
    )
    start({ onUpdate: slowly, deliveryLeaseMs: 1000 })
    await until(() => new Set(deliveries.map((d) => d.payment.id)).size === ids.length, 10_000, 'every change')
    await new Promise((resolve) => setTimeout(resolve, 1200))
    expect(deliveries.map((d) => d.payment.id).sort()).toEqual([...ids].sort())
  })
})

describe('leases on payments', () => {
  it('drop the answer of an instance whose lease ran out and was taken, so one change is recorded once', async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_l', userId: 'alice', status: 'pending' })
    const [slow] = await claimDuePayments(store.db, 'slow', 10, 1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const [quick] = await claimDuePayments(store.db, 'quick', 10, 60_000)
    expect(quick?.id).toBe('po_l')
    expect(await claimDuePayments(store.db, 'third', 10, 60_000)).toEqual([]) // held by quick
    const seen = { status: 'converting', record: { id: 'po_l', status: 'converting' }, final: false, nextIntervalMs: 0 }
    expect(await recordObservation(store.db, 'slow', slow, seen)).toBe(false)
    expect(await recordObservation(store.db, 'quick', quick, seen)).toBe(true)
    expect(await recordObservation(store.db, 'quick', quick, seen)).toBe(false) // a stale version
    const { rows } = await store.db.query(`SELECT status, previous_status FROM stablecoin_widget.changes WHERE id = 'po_l'`)
    expect(rows).toEqual([{ status: 'converting', previous_status: 'pending' }])
  })
})
