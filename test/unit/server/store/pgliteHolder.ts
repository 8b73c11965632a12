// A process that holds a PGlite dataDir (pgliteLock.test.ts bundles and forks it): it opens the
// store, records one payment, says so over IPC, and then keeps the store open until killed.
import { openPaymentStore } from '../../../../src/server/index'

const store = await openPaymentStore({ dataDir: process.env.DATA_DIR })
await store.recordPayment({ kind: 'card', id: 'cp_child', userId: 'child-user' })
process.send!({ type: 'ready', pid: process.pid })
setInterval(() => {}, 60_000)
