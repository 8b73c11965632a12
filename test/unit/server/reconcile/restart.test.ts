// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createReconciler, openPaymentStore, type OnUpdate, type PaymentStore } from '../../../../src/server/index'
import { everyKind, exactlyOnceFigures, until } from './fakeStatuses'

const dataDir = mkdtempSync(join(tmpdir(), 'scw-store-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('carries every kind on after a restart on the same data directory: nothing lost, nothing told twice', { timeout: 90_000 }, async () => {
  const world = everyKind()
  // Each change onUpdate took (returned from), in order, across both lives of the store.
  const told: Array<{ life: number; changeId: string; kind: string; id: string; change: string; final: boolean }> = []
  const run = (store: PaymentStore, onUpdate: OnUpdate) => {
    const reconciler = createReconciler({
      store,
      fetchStatus: async (kind, id) => world.answer(kind, id),
      onUpdate,
      schedule: 'fixed',
      requestsPerSecond: 100,
      pollIntervalMs: 20,
      maxPollIntervalMs: 40,
      idleMs: 10,
      retryBaseMs: 20,
      log: () => {},
    })
    reconciler.start()
    return reconciler
  }
  const take =
    (life: number): OnUpdate =>
    (payment, previous) => {
      told.push({ life, changeId: payment.changeId, kind: payment.kind, id: payment.id, change: `${previous?.status}→${payment.status}`, final: payment.final })
      world.delivered(payment.kind, payment.id, payment.status)
    }

  const first = await openPaymentStore({ dataDir })
  await world.record(first, 'alice')
  // The partner's side of payout_1 is down: its first change is recorded, and waits.
  const before = run(first, (payment, previous) => {
    if (payment.id === 'payout_1') throw new Error('down')
    return take(1)(payment, previous)
  })
  await until(() => told.length >= world.total / 3, 20_000, 'a third of the changes')
  await before.stop()
  await first.close()
  const beforeRestart = told.length
  // Mid-way: payout_1 not even begun, and not every payment final.
  expect(told.filter((t) => t.id === 'payout_1')).toEqual([])
  expect(told.filter((t) => t.final).length).toBeLessThan(world.payments.length)

  const second = await openPaymentStore({ dataDir })
  expect(await second.ownerOf('payout', 'payout_1')).toBe('alice')
  const after = run(second, take(2))
  await until(() => told.length >= world.total, 20_000, 'every change of every kind')
  await new Promise((resolve) => setTimeout(resolve, 300)) // a repeat would show now
  await after.stop()
  for (const { kind, id } of world.payments) {
    expect(
      told.filter((t) => t.id === id).map((t) => t.change),
      `${kind} ${id}`,
    ).toEqual(world.expected(kind))
    expect(
      told.filter((t) => t.id === id && t.final),
      `${kind} ${id}`,
    ).toHaveLength(1)
  }
  expect(told.find((t) => t.id === 'payout_1')?.life).toBe(2)
  const figures = await exactlyOnceFigures(
    `PGlite, restarted after ${beforeRestart} of ${world.total}`,
    second.db,
    world.payments.map((p) => p.id),
    told.map((t) => t.changeId),
  )
  await second.close()
  expect(figures).toEqual({ seen: world.total, delivered: world.total, duplicates: 0, undelivered: 0 })
})
