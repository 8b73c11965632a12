// @vitest-environment node
// The store's queue of looks (store/lookQueue.ts) on the kit's clock: a simulated clock drives it,
// whatever the database's own time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openPaymentStore, type PaymentStore } from '../../../../src/server/index'
import { claimDuePayments, claimLooks, nextDueAt, postpone, recordObservation, releaseLeases, retireStale } from '../../../../src/server/store/lookQueue'

let store: PaymentStore
beforeAll(async () => {
  store = await openPaymentStore()
}, 60_000)
afterAll(() => store?.close())
beforeEach(async () => {
  await store.db.query('DELETE FROM stablecoin_widget.changes')
  await store.db.query('DELETE FROM stablecoin_widget.payments')
})

// A year before the database's own time: only the kit's clock can make these due.
const T0 = Date.now() - 365 * 86_400_000
const MIN = 60_000

describe("the queue of looks, on the kit's clock", () => {
  it('records a payment created at a given moment, due at that moment, and hands out the oldest due first', async () => {
    await store.recordPayment({
      kind: 'payout',
      id: 'po_late',
      userId: 'alice',
      status: 'pending',
      currency: 'EUR',
      amount: '10',
      createdAt: new Date(T0 + 2 * MIN),
    })
    await store.recordPayment({ kind: 'payout', id: 'po_early', userId: 'alice', status: 'pending', createdAt: new Date(T0) })
    expect(await nextDueAt(store.db)).toBe(T0)
    expect(await claimDuePayments(store.db, 'me', 10, 60_000, T0 - 1)).toEqual([])
    const due = await claimDuePayments(store.db, 'me', 10, 60_000, T0 + 5 * MIN)
    expect(due.map((p) => p.id)).toEqual(['po_early', 'po_late'])
    expect(due[1]).toMatchObject({
      kind: 'payout',
      status: 'pending',
      currency: 'EUR',
      createdAt: T0 + 2 * MIN,
      lastChangeAt: T0 + 2 * MIN,
      looks: 0,
      unchangedLooks: 0,
    })
  })

  it('counts the looks, those since the last change, and when the change was seen; the change is observed at the look', async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_1', userId: 'alice', status: 'pending', createdAt: new Date(T0) })
    const look = async (at: number, status: string, next = MIN) => {
      const [payment] = await claimDuePayments(store.db, 'me', 10, 60_000, at)
      expect(await recordObservation(store.db, 'me', payment, { status, record: { id: 'po_1', status }, final: false, nextIntervalMs: next, now: at })).toBe(
        true,
      )
      const seen = await claimDuePayments(store.db, 'peek', 10, 60_000, at + next)
      await releaseLeases(store.db, 'peek', seen)
      return seen[0]
    }
    expect(await look(T0 + 10_000, 'pending')).toMatchObject({ looks: 1, unchangedLooks: 1, lastChangeAt: T0 })
    expect(await look(T0 + 2 * MIN, 'converting')).toMatchObject({ looks: 2, unchangedLooks: 0, lastChangeAt: T0 + 2 * MIN })
    expect(await look(T0 + 4 * MIN, 'converting', 30 * MIN)).toMatchObject({ looks: 3, unchangedLooks: 1, lastChangeAt: T0 + 2 * MIN })
    expect(await nextDueAt(store.db)).toBe(T0 + 34 * MIN)
    const { rows } = await store.db.query<{ observed_at: Date }>(`SELECT observed_at FROM stablecoin_widget.changes WHERE id = 'po_1'`)
    expect(rows.map((row) => new Date(row.observed_at).getTime())).toEqual([T0 + 2 * MIN])
  })

  it('postpones a payment unasked without counting a look, and an unanswered look as one', async () => {
    await store.recordPayment({ kind: 'card', id: 'cd_1', userId: 'bob', status: 'pending', createdAt: new Date(T0) })
    let [payment] = await claimDuePayments(store.db, 'me', 10, 60_000, T0)
    await postpone(store.db, 'me', payment, 10_000, { now: T0, asked: false })
    expect(await claimDuePayments(store.db, 'me', 10, 60_000, T0 + 9_999)).toEqual([])
    ;[payment] = await claimDuePayments(store.db, 'me', 10, 60_000, T0 + 10_000)
    expect(payment).toMatchObject({ looks: 0, unchangedLooks: 0 })
    await postpone(store.db, 'me', payment, 20_000, { now: T0 + 10_000, asked: true })
    ;[payment] = await claimDuePayments(store.db, 'me', 10, 60_000, T0 + 30_000)
    expect(payment).toMatchObject({ looks: 1, unchangedLooks: 1, intervalMs: 20_000 })
  })

  it("retires the payments created longer ago than followForMs on the kit's clock", async () => {
    await store.recordPayment({ kind: 'card', id: 'cd_old', userId: 'bob', createdAt: new Date(T0) })
    await store.recordPayment({ kind: 'card', id: 'cd_new', userId: 'bob', createdAt: new Date(T0 + 2 * MIN) })
    expect((await retireStale(store.db, 2 * MIN, T0 + 3 * MIN)).map((p) => p.id)).toEqual(['cd_old'])
    expect(await nextDueAt(store.db)).toBe(T0 + 2 * MIN)
  })

  it('tells a listener in this process of each payment recorded (the reconciler looks at it without waiting for its next round)', async () => {
    const heard: string[] = []
    const stop = store.onRecorded!((payment) => heard.push(`${payment.kind} ${payment.id}`))
    await store.recordPayment({ kind: 'card', id: 'cd_heard', userId: 'bob' })
    expect(await store.recordPayment({ kind: 'card', id: 'cd_heard', userId: 'mallory' })).toBe(false)
    stop()
    await store.recordPayment({ kind: 'card', id: 'cd_unheard', userId: 'bob' })
    expect(heard).toEqual(['card cd_heard'])
  })

  it('claims the payments due by a moment and tells, in the same statement, when the first one it left is due', async () => {
    for (const [id, minutes] of [
      ['po_a', 0],
      ['po_b', 1],
      ['po_c', 30],
    ] as const) {
      await store.recordPayment({ kind: 'payout', id, userId: 'alice', status: 'pending', createdAt: new Date(T0 + minutes * MIN) })
    }
    const first = await claimLooks(store.db, 'me', 10, 60_000, T0 + 2 * MIN)
    expect(first.payments.map((p) => [p.id, p.dueAt])).toEqual([
      ['po_a', T0],
      ['po_b', T0 + MIN],
    ])
    expect(first.restDueAt).toBe(T0 + 30 * MIN)
    // Held by this instance: not claimed again, and not "left" either (another instance's lease is).
    const second = await claimLooks(store.db, 'other', 10, 60_000, T0 + 2 * MIN)
    expect(second).toEqual({ payments: [], restDueAt: T0 })
    await releaseLeases(store.db, 'me', first.payments)
    expect((await claimLooks(store.db, 'other', 1, 60_000, T0 + 2 * MIN)).restDueAt).toBe(T0 + MIN)
  })
})
