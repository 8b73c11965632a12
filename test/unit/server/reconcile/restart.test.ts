// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createReconciler, openPaymentStore, type OnUpdate, type PaymentStore } from '../../../../src/server/index'
import { fakeStatuses, until } from './fakeStatuses'

const dataDir = mkdtempSync(join(tmpdir(), 'scw-store-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it('carries on after a restart on the same data directory: nothing lost, nothing told twice', { timeout: 90_000 }, async () => {
  const fake = fakeStatuses()
  const told: string[] = []
  const run = (store: PaymentStore, onUpdate: OnUpdate) => {
    const reconciler = createReconciler({ store, fetchStatus: fake.fetchStatus, onUpdate, requestsPerSecond: 100, pollIntervalMs: 20, maxPollIntervalMs: 40, idleMs: 10, retryBaseMs: 20, log: () => {} })
    reconciler.start()
    return reconciler
  }
  const first = await openPaymentStore({ dataDir })
  for (const id of ['po_1', 'po_2', 'po_3']) {
    await first.recordPayment({ kind: 'payout', id, userId: 'alice', status: 'pending' })
    fake.set('payout', id, 'converting')
  }
  // The partner's side of po_2 is down: its change is recorded, and waits.
  const before = run(first, (payment, previous) => {
    if (payment.id === 'po_2') throw new Error('down')
    told.push(`${payment.id} ${previous?.status}→${payment.status}`)
  })
  await until(() => told.length === 2, 20_000, 'po_1 and po_3')
  await before.stop()
  await first.close()
  fake.set('payout', 'po_1', 'sent') // moves while no instance runs

  const second = await openPaymentStore({ dataDir })
  expect(await second.ownerOf('payout', 'po_2')).toBe('alice')
  const after = run(second, (payment, previous) => void told.push(`${payment.id} ${previous?.status}→${payment.status}`))
  await until(() => told.length >= 4, 20_000, 'po_2 and po_1 again')
  await new Promise((resolve) => setTimeout(resolve, 300))
  await after.stop()
  await second.close()
  expect(told.slice(0, 2).sort()).toEqual(['po_1 pending→converting', 'po_3 pending→converting'])
  expect(told.slice(2).sort()).toEqual(['po_1 converting→sent', 'po_2 pending→converting'])
})
