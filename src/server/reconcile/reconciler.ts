// Follows every open payment the store knows until its status is final, and tells the partner
// each change once (a stand-in for the service's webhooks, whose shape is not published yet).
// Everything it knows lives in the store: a restarted instance, or another instance on the same
// database, carries on where this one stopped, without repeating a delivered change.
import type { PaymentStore } from '../store/paymentStore'
import { deliverDue } from './deliverDue'
import { createPacer, realClock, type Clock } from './pacer'
import { lookDue } from './lookDue'
import type { FetchStatus } from './statusFetcher'
import type { OnUpdate } from './update'

export type ReconcilerOptions = {
  store: PaymentStore
  /** How to ask the service; `createStatusFetcher({ apiBase, apiKey })` asks its partner path. */
  fetchStatus: FetchStatus
  onUpdate: OnUpdate
  /**
   * This instance's share of the key's rate, which is per key (the service counts every partner
   * request: the handler's too). With several instances, divide what you give the reconciler
   * among them. Default 1.
   */
  requestsPerSecond?: number
  /** The first look at a payment, and the next after each change. Default 5 s. */
  pollIntervalMs?: number
  /** While a status stays the same, looks grow apart up to this. Default 10 min. */
  maxPollIntervalMs?: number
  /** A payment not final this long after its creation is no longer followed (logged). Default 30 days. */
  followForMs?: number
  /** onUpdate that throws is tried again after this, doubling up to retryMaxMs. Default 1 s, 15 min. */
  retryBaseMs?: number
  retryMaxMs?: number
  /** How long a claimed payment or change is this instance's before another may take it over. */
  leaseMs?: number
  /** Must exceed the longest onUpdate: past it, another instance may deliver the change again. Default 60 s. */
  deliveryLeaseMs?: number
  /** How long to wait before looking again when nothing was due. Default 1 s. */
  idleMs?: number
  batchSize?: number
  log?: (line: string) => void
  clock?: Clock
}

export type Reconciler = {
  start(): void
  /** Resolves once the rounds in progress have ended (an onUpdate in progress is awaited). */
  stop(): Promise<void>
}

export function createReconciler(options: ReconcilerOptions): Reconciler {
  const clock = options.clock ?? realClock
  const rps = options.requestsPerSecond ?? 1
  const leaseMs = options.leaseMs ?? 30_000
  const retryBaseMs = options.retryBaseMs ?? 1000
  const retryMaxMs = options.retryMaxMs ?? 15 * 60_000
  const idleMs = options.idleMs ?? 1000
  const batchSize = options.batchSize ?? 20
  const log = options.log ?? ((line: string) => console.warn(`[stablecoin-widget/server] reconciler: ${line}`))
  const owner = crypto.randomUUID()
  const db = options.store.db
  const pacer = createPacer(rps, clock)
  // A payment is claimed only as far as its lease lasts at this pace: half the lease's worth.
  const pollBatch = Math.max(1, Math.min(batchSize, Math.floor((rps * leaseMs) / 2000)))
  let controller: AbortController | undefined
  let loops: Promise<unknown> | undefined
  let wakeDelivery = () => {}

  async function loop(round: () => Promise<number>, signal: AbortSignal, onWake?: (wake: () => void) => void) {
    // While the database fails, rounds grow apart (up to a minute) rather than fill the log.
    let failures = 0
    while (!signal.aborted) {
      let worked = 0
      try {
        worked = await round()
        failures = 0
      } catch (error) {
        const wait = Math.min(60_000, idleMs * 2 ** failures++)
        log(`round failed (${error instanceof Error ? error.message : String(error)}); trying again in ${wait} ms`)
        await clock.sleep(wait, signal)
        continue
      }
      if (worked || signal.aborted) continue
      const nap = new AbortController()
      onWake?.(() => nap.abort())
      await clock.sleep(idleMs, AbortSignal.any([signal, nap.signal]))
    }
  }

  return {
    start() {
      if (controller) return
      const signal = (controller = new AbortController()).signal
      const poll = async () => {
        const { claimed, changed } = await lookDue({
          db, owner, fetchStatus: options.fetchStatus, pacer, now: clock.now, batchSize: pollBatch, leaseMs, log, signal,
          pollIntervalMs: options.pollIntervalMs ?? 5000,
          maxPollIntervalMs: options.maxPollIntervalMs ?? 10 * 60_000,
          followForMs: options.followForMs ?? 30 * 24 * 3_600_000,
        })
        if (changed) wakeDelivery()
        return claimed
      }
      const deliver = () =>
        deliverDue({
          db, owner, onUpdate: options.onUpdate, batchSize, leaseMs: options.deliveryLeaseMs ?? 60_000, log, signal,
          retryMs: (attempts) => Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempts - 1)),
        })
      loops = Promise.all([loop(poll, signal), loop(deliver, signal, (wake) => (wakeDelivery = wake))])
    },
    async stop() {
      controller?.abort()
      await loops
      controller = undefined
      loops = undefined
    },
  }
}
