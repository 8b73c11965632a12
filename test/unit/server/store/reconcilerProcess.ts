// One reconciler instance as its own process (multiInstance.test.ts bundles and forks it): its own
// pg Pool on the shared database, statuses from the test's HTTP server, each delivery reported to
// the test over IPC before onUpdate returns.
import pg from 'pg'
import { createReconciler, openPaymentStore } from '../../../../src/server/index'

const env = process.env
const name = env.INSTANCE ?? 'instance'
const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()))
const pool = new pg.Pool({ host: '127.0.0.1', port: Number(env.PG_PORT), user: 'postgres', database: 'postgres', max: 4 })
const store = await openPaymentStore({ pool })
// After this many deliveries, onUpdate never returns: the test kills the process there.
const hangAfter = env.HANG_AFTER === undefined ? Infinity : Number(env.HANG_AFTER)
let delivered = 0

const reconciler = createReconciler({
  store,
  fetchStatus: async (kind, id) => {
    const res = await fetch(`${env.STATUS_URL}/${kind}/${encodeURIComponent(id)}`, { headers: { 'X-Instance': name, 'X-Started-At': String(Date.now()) } })
    if (!res.ok) throw new Error(`status server answered ${res.status}`)
    return res.json()
  },
  onUpdate: async (payment, previous) => {
    const message = { instance: name, changeId: payment.changeId, kind: payment.kind, id: payment.id, status: payment.status, previous: previous?.status }
    if (delivered >= hangAfter) {
      await send({ type: 'hanging', ...message })
      await new Promise(() => {})
    }
    delivered++
    await send({ type: 'delivered', ...message })
  },
  requestsPerSecond: Number(env.RPS),
  schedule: 'fixed',
  pollIntervalMs: 100,
  maxPollIntervalMs: 200,
  idleMs: 50,
  leaseMs: 1500,
  deliveryLeaseMs: 1500,
  log: (line) => void send({ type: 'log', instance: name, line }),
})
reconciler.start()
process.on('message', async (message) => {
  if (message !== 'stop') return
  await reconciler.stop()
  await pool.end()
  process.exit(0)
})
await send({ type: 'ready', instance: name })
