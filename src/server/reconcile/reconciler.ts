// Follows every open payment the store knows until its status is final, and tells the partner
// each change once (a stand-in for the service's webhooks, whose shape is not published yet).
// Everything it knows lives in the store: a restarted instance, or another instance on the same
// database, carries on where this one stopped, without repeating a delivered change.
import { retireStale } from '../store/lookQueue'
import type { PaymentStore } from '../store/paymentStore'
import { createKeyRate, type KeyRate } from './keyRate'
import { lookDue } from './lookDue'
import { fixedPace, nextLook } from './nextLook'
import { createPacer, realClock, type Clock } from './pacer'
import { createSettlements } from './settlements'
import { type OnUpdate, deliverDue } from './onUpdate'
import type { FetchStatus } from './status'

export type ReconcilerOptions = {
  store: PaymentStore
  /**
   * How to ask the service; `createStatusFetcher({ apiBase, apiKey })` asks its partner path, and
   * its `limits()` reads the rails' settlement times (GET /v1/limits) the schedule needs.
   */
  fetchStatus: FetchStatus & { limits?: () => Promise<unknown> }
  onUpdate: OnUpdate
  /**
   * This instance's share of the key's rate, which is per key (the service counts every partner
   * request: the handler's too). With several instances, divide what you give the reconciler
   * among them. Default 1.
   */
  requestsPerSecond?: number
  /**
   * The key's rate shared with the handler (`createKeyRate()`, given to both): the reconciler then
   * yields while the buyers' requests use the key, and after their 429s.
   */
  keyRate?: KeyRate
  /**
   * When to look at each payment: `'settlement'` (default) from what its status waits on and its
   * rail's settlement time (nextLook, docs/server-store.md), or `'fixed'`, the pace before it,
   * kept for comparison: `pollIntervalMs` after a change, doubling while nothing moves.
   */
  schedule?: 'settlement' | 'fixed'
  /** The fixed pace's first look after a change. Default 5 s. */
  pollIntervalMs?: number
  /** The fixed pace's longest wait while a status stays the same. Default 10 min. */
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
  /**
   * The longest a loop waits with nothing due before it looks at the store again (another
   * instance's new payments; this process's are seen at once). Default 1 s.
   */
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
  const followForMs = options.followForMs ?? 30 * 24 * 3_600_000
  const log = options.log ?? ((line: string) => console.warn(`[stablecoin-widget/server] reconciler: ${line}`))
  const owner = crypto.randomUUID()
  const db = options.store.db
  const pacer = createPacer(rps, clock)
  const keyRate = options.keyRate ?? createKeyRate({ clock })
  const fixed = options.schedule === 'fixed'
  if (options.schedule !== undefined && options.schedule !== 'settlement' && !fixed)
    throw new TypeError("createReconciler: schedule must be 'settlement' or 'fixed'")
  if (!fixed && (options.pollIntervalMs !== undefined || options.maxPollIntervalMs !== undefined)) {
    log("pollIntervalMs and maxPollIntervalMs set the fixed pace (schedule: 'fixed'); the settlement schedule does not read them")
  }
  const schedule = fixed ? fixedPace({ pollIntervalMs: options.pollIntervalMs, maxPollIntervalMs: options.maxPollIntervalMs }) : nextLook
  // A payment is claimed only as far as its lease lasts at this pace: half the lease's worth, and
  // due within half the lease.
  const pollBatch = Math.max(1, Math.min(batchSize, Math.floor((rps * leaseMs) / 2000)))
  const aheadMs = Math.min(5_000, leaseMs / 2)

  /** The reconciler's turn: its own share, then room beside the handler's requests and past a 429. */
  async function turn(signal: AbortSignal) {
    for (;;) {
      await pacer.turn(signal)
      if (signal.aborted) return
      const wait = keyRate.reconcilerWait()
      if (wait <= 0) return keyRate.reconcilerStarts()
      await clock.sleep(wait, signal)
    }
  }
  // The fixed pace reads no settlement time.
  const settlements = fixed
    ? undefined
    : createSettlements({
        fetchLimits: options.fetchStatus.limits?.bind(options.fetchStatus),
        now: () => clock.now(),
        turn,
        rateLimited: keyRate.rateLimited,
        log,
      })

  let controller: AbortController | undefined
  let loops: Promise<unknown> | undefined
  let unsubscribe: (() => void) | undefined

  /**
   * Runs rounds: at once again after a full one; else naps `napMs(worked)` (0: no nap, at most
   * idleMs), or until woken.
   */
  function worker(round: () => Promise<{ worked: number; full: boolean }>, napMs: (worked: number) => Promise<number>) {
    let woken = false
    let nap: AbortController | undefined
    return {
      wake() {
        woken = true
        nap?.abort()
      },
      async run(signal: AbortSignal) {
        // While the database fails, rounds grow apart (up to a minute) rather than fill the log.
        let failures = 0
        while (!signal.aborted) {
          woken = false
          let done: { worked: number; full: boolean }
          try {
            done = await round()
            failures = 0
          } catch (error) {
            const wait = Math.min(60_000, idleMs * 2 ** failures++)
            log(`round failed (${error instanceof Error ? error.message : String(error)}); trying again in ${wait} ms`)
            await clock.sleep(wait, signal)
            continue
          }
          if (done.full || woken || signal.aborted) continue
          nap = new AbortController()
          const ms = await napMs(done.worked).catch(() => idleMs)
          if (ms > 0 && !woken) await clock.sleep(ms, AbortSignal.any([signal, nap.signal]))
          nap = undefined
        }
      },
    }
  }

  return {
    start() {
      if (controller) return
      const signal = (controller = new AbortController()).signal
      let retireAt = -Infinity
      const delivery = worker(
        async () => {
          const { claimed, more } = await deliverDue({
            db,
            owner,
            onUpdate: options.onUpdate,
            batchSize,
            leaseMs: options.deliveryLeaseMs ?? 60_000,
            log,
            signal,
            retryMs: (attempts) => Math.min(retryMaxMs, retryBaseMs * 2 ** Math.max(0, attempts - 1)),
          })
          // Again at once when the batch was full, or a delivery freed the next change of its payment.
          return { worked: claimed, full: claimed >= batchSize || more }
        },
        async () => idleMs,
      )
      // A payment recorded in this process interrupts a round that waits for the moment of its next
      // look (its payments not looked at yet are handed back, and claimed again with the new one).
      let interrupt = new AbortController()
      let nextAt = Infinity
      const looks = worker(
        async () => {
          if (clock.now() >= retireAt) {
            retireAt = clock.now() + Math.min(3_600_000, followForMs / 100)
            for (const stale of await retireStale(db, followForMs, clock.now())) {
              log(`${stale.kind} ${stale.id} is no longer followed: still ${stale.status ?? 'without a status'} after ${followForMs} ms`)
            }
          }
          interrupt = new AbortController()
          const round = await lookDue({
            db,
            owner,
            fetchStatus: options.fetchStatus,
            schedule,
            settlements,
            turn,
            rateLimited: keyRate.rateLimited,
            now: () => clock.now(),
            sleep: (ms, until) => clock.sleep(ms, until),
            batchSize: pollBatch,
            leaseMs,
            aheadMs,
            log,
            signal,
            interrupt: interrupt.signal,
          })
          if (round.changed) delivery.wake()
          nextAt = Math.min(round.nextAt, round.restDueAt ?? Infinity)
          return { worked: round.claimed, full: round.claimed >= pollBatch || round.again }
        },
        // Until the next payment is due (at once when one came due during the round), or idleMs
        // (another instance's new payments; one due but leased to another instance).
        async (worked) => {
          if (nextAt === Infinity) return idleMs
          const wait = nextAt - clock.now()
          return wait > 0 ? Math.min(idleMs, wait) : worked > 0 ? 0 : idleMs
        },
      )
      unsubscribe = options.store.onRecorded?.(() => {
        interrupt.abort()
        looks.wake()
      })
      loops = Promise.all([looks.run(signal), delivery.run(signal)])
    },
    async stop() {
      controller?.abort()
      unsubscribe?.()
      await loops
      controller = undefined
      loops = undefined
      unsubscribe = undefined
    },
  }
}
