// One payment store for a test file: opened before its tests, closed after them.
import { afterAll, beforeAll } from 'vitest'
import { type PaymentStore, openPaymentStore } from '../../../src/server/index'
import type { NewPayment } from '../../../src/server/store/paymentStore'

/** Registers the file's beforeAll that opens the store (handing it to `keep`) and the afterAll that closes it. */
export function paymentStoreForFile(keep: (store: PaymentStore) => void) {
  let opened: PaymentStore | undefined
  beforeAll(async () => {
    opened = await openPaymentStore()
    keep(opened)
  }, 60_000)
  afterAll(() => opened?.close())
}

/** Payments of `userId`, as if the user had created them through the kit: each one's kind and id. */
export async function recordPayments(store: PaymentStore, userId: string, payments: ReadonlyArray<readonly [NewPayment['kind'], string]>) {
  for (const [kind, id] of payments) await store.recordPayment({ kind, id, userId })
}
