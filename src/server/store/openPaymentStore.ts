// The store on the engine the partner chose: its own `pg` Pool (several instances share one
// database), or by default PGlite in this process (one instance; persisted when given a dataDir).
import { migrate } from './migrations'
import { createPaymentStore, type PaymentStore } from './paymentStore'
import { openPglite } from './pglite'
import { poolDb, type PgPool } from './sql'

export type PaymentStoreOptions =
  | { pool: PgPool }
  /** PGlite, in memory when `dataDir` is omitted (everything is lost when the process ends). */
  | { dataDir?: string }

export async function openPaymentStore(options: PaymentStoreOptions = {}): Promise<PaymentStore> {
  const db = 'pool' in options ? poolDb(options.pool) : await openPglite(options.dataDir)
  try {
    await migrate(db)
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
  return createPaymentStore(db)
}
