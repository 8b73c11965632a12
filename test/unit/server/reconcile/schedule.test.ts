// @vitest-environment node
// The reconciler on a simulated clock (issue 37): the schedule it follows (nextLook, or the fixed pace
// for comparison), GET /v1/limits read through the key, its share of the key's rate beside the
// handler's, and the catch-up after it was down. Times are exact: nothing here waits on a real clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createKeyRate,
  createReconciler,
  openPaymentStore,
  type PaymentKind,
  type PaymentStore,
  type PaymentUpdate,
  type Reconciler,
  type ReconcilerOptions,
} from '../../../../src/server/index'
import { busiestWindow } from './fakeStatuses'
import { createSimulatedClock, type SimulatedClock } from './simulatedClock.mjs'

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const T0 = Date.UTC(2026, 10, 2, 9)
const LIMITS = [
  { currency: 'EUR', rail: 'sepa_instant', direction: 'both', max: '100000.00', min: '1.00', settlement: 'instant' },
  { currency: 'EUR', rail: 'sepa', direction: 'payout', max: null, min: '1.00', settlement: 't+1' },
]

let store: PaymentStore
beforeAll(async () => {
  store = await openPaymentStore()
}, 60_000)
afterAll(() => store?.close())

let clock: SimulatedClock
let requests: Array<{ at: number; kind: string; id: string }>
let timelines: Map<string, Array<[number, Record<string, unknown>]>>
let delivered: Array<PaymentUpdate & { at: number; previousStatus?: string }>
let running: Reconciler[]
beforeEach(async () => {
  await store.db.query('DELETE FROM stablecoin_widget.changes')
  await store.db.query('DELETE FROM stablecoin_widget.payments')
  clock = createSimulatedClock({ start: T0, actors: 1 })
  requests = []
  timelines = new Map()
  delivered = []
  running = []
  return async () => {
    await Promise.all(running.map((r) => r.stop()))
  }
})

/** The service: each payment's record from a moment on, as the test lays it out. */
function at(kind: PaymentKind, id: string, ...steps: Array<[number, Record<string, unknown>]>) {
  timelines.set(`${kind}:${id}`, steps)
}
const fetchStatus = Object.assign(
  async (kind: PaymentKind, id: string) => {
    requests.push({ at: clock.now(), kind, id })
    const steps = timelines.get(`${kind}:${id}`) ?? []
    const record = steps.filter(([from]) => from <= clock.now()).at(-1)?.[1]
    if (!record) throw new Error(`no such ${kind} ${id}`)
    return { id, ...record }
  },
  {
    limits: async () => {
      requests.push({ at: clock.now(), kind: 'limits', id: '' })
      return { limits: LIMITS }
    },
  },
)

/** Runs a reconciler on the simulated clock: its two loops are actors, as is the test. */
function start(options: Partial<ReconcilerOptions> = {}): Reconciler {
  const reconciler = createReconciler({
    store,
    fetchStatus,
    onUpdate: (payment, previous) => void delivered.push({ ...payment, at: clock.now(), previousStatus: previous?.status }),
    requestsPerSecond: 2,
    clock,
    // New payments wake it (store.onRecorded): no round needs to look for them.
    idleMs: H,
    log: () => {},
    ...options,
  })
  reconciler.start()
  clock.actors += 2
  running.push(reconciler)
  return reconciler
}
async function stop(reconciler: Reconciler) {
  await reconciler.stop()
  clock.actors -= 2
  running = running.filter((r) => r !== reconciler)
}
const lookTimes = (id: string) => requests.filter((r) => r.id === id).map((r) => (r.at - T0) / S)

describe('the schedule', { timeout: 60_000 }, () => {
  it("looks at a new payout 30 s after its creation, the buyer's funding taking longer (the fixed pace: at once)", async () => {
    for (const [id, schedule] of [
      ['po_new', undefined],
      ['po_fixed', 'fixed'],
    ] as const) {
      await store.recordPayment({ kind: 'payout', id, userId: 'alice', status: 'pending', createdAt: new Date(clock.now()) })
      at('payout', id, [T0, { status: 'pending' }])
      const reconciler = start({ schedule })
      await clock.sleep(32 * S)
      await stop(reconciler)
    }
    expect(lookTimes('po_new').filter((t) => t < 32)).toEqual([30])
    // (Created when the first had run 32 s: at once, 5 s later, then 10 s later.)
    expect(lookTimes('po_fixed')).toEqual([32, 37, 47])
  })

  it("follows a payout sent on a t+1 rail (read from GET /v1/limits and its record's rail) hourly before its window and every 10 min in it, and delivers the settlement", async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_t1', userId: 'alice', status: 'sent', amount: '10', currency: 'EUR', createdAt: new Date(T0) })
    at('payout', 'po_t1', [T0, { status: 'sent', rail: 'sepa', fiatCurrency: 'EUR' }], [T0 + 20 * H, { status: 'settled', rail: 'sepa', fiatCurrency: 'EUR' }])
    start()
    await clock.sleep(24 * H)
    // Before its first answer, the slowest payout rail of its currency (EUR: t+1). Before its
    // window's start (12 h), hourly (a return, a rejection); then every 10 min (the fixed pace's
    // longest) until it settles. (A read of the limits, when an hour old, takes the reconciler's
    // turn just before a look: half a second at 2 a second.)
    const hourly = Array.from({ length: 12 }, (_, i) => 60 * (i + 1))
    const inWindow = Array.from({ length: 48 }, (_, i) => 730 + 10 * i)
    expect(lookTimes('po_t1').map((t) => Math.round(t / 60))).toEqual([...hourly, ...inWindow])
    expect(delivered.map((d) => [d.previousStatus, d.status, Math.round((d.at - T0) / MIN), Math.round((d.observedAt.getTime() - T0) / MIN)])).toEqual([
      ['sent', 'settled', 1200, 1200],
    ])
    // The limits are read when a payment needs them, and again only once an hour has passed.
    const limits = requests.filter((r) => r.kind === 'limits').map((r) => (r.at - T0) / S)
    expect(limits[0]).toBeLessThanOrEqual(10)
    expect(limits.length).toBeLessThanOrEqual(24)
    expect(limits.slice(1).every((t, i) => t - limits[i] >= 3600)).toBe(true)
  })

  it('spends far fewer looks on it than the fixed pace, for the same delivery', async () => {
    await store.recordPayment({ kind: 'payout', id: 'po_f1', userId: 'alice', status: 'sent', amount: '10', currency: 'EUR', createdAt: new Date(T0) })
    at('payout', 'po_f1', [T0, { status: 'sent', rail: 'sepa', fiatCurrency: 'EUR' }], [T0 + 20 * H, { status: 'settled', rail: 'sepa', fiatCurrency: 'EUR' }])
    start({ schedule: 'fixed' })
    await clock.sleep(24 * H)
    expect(lookTimes('po_f1').length).toBeGreaterThan(100)
    expect(delivered.map((d) => [d.previousStatus, d.status])).toEqual([['sent', 'settled']])
  })
})

describe("the key's rate", { timeout: 60_000 }, () => {
  it('catches up oldest-due first after an hour down, never above its rate', async () => {
    for (let i = 0; i < 120; i++) {
      const id = `po_${String(i).padStart(3, '0')}`
      await store.recordPayment({ kind: 'payout', id, userId: 'alice', status: 'pending', amount: '10', currency: 'EUR', createdAt: new Date(T0 + i * 10 * S) })
      at('payout', id, [T0, { status: 'pending' }])
    }
    const first = start()
    await clock.sleep(30 * MIN)
    await stop(first)
    // Down for an hour: every payment is overdue, some by far more than others.
    await clock.sleep(H)
    const { rows } = await store.db.query<{ id: string }>(`SELECT id FROM stablecoin_widget.payments WHERE open ORDER BY next_check_at, created_at, id`)
    const back = clock.now()
    start()
    await clock.sleep(5 * MIN)
    const after = requests.filter((r) => r.at >= back)
    const catchUp = after
      .filter((r) => r.kind === 'payout')
      .slice(0, rows.length)
      .map((r) => r.id)
    expect(catchUp).toEqual(rows.map((r) => r.id))
    expect(
      busiestWindow(
        after.map((r) => r.at),
        1000,
      ),
    ).toBeLessThanOrEqual(2)
    // At its rate from the moment it is back: 120 looks (and a read of the limits) in about a minute.
    expect(after[0].at - back).toBeLessThan(1000)
    expect((after.filter((r) => r.kind === 'payout')[rows.length - 1].at - back) / S).toBeLessThanOrEqual(61)
  })

  it("yields to the buyers' requests through the handler, and waits out the service's 429", async () => {
    for (let i = 0; i < 100; i++) {
      await store.recordPayment({ kind: 'card', id: `cd_${i}`, userId: 'bob', createdAt: new Date(T0) })
      at('card', `cd_${i}`, [T0, { status: 'pending', environment: 'sandbox' }])
    }
    const keyRate = createKeyRate({ requestsPerSecond: 6, clock })
    const handlerRequests: number[] = []
    let refuse = false
    const handlerFetch = keyRate.wrapFetch((async () => {
      handlerRequests.push(clock.now())
      return new Response('{}', { status: refuse ? 429 : 200, headers: refuse ? { 'Retry-After': '5' } : {} })
    }) as unknown as typeof fetch)
    start({ keyRate, requestsPerSecond: 3 })
    // The buyers (this test): 4 requests a second through the handler from 1 s to 10 s, the last
    // one refused (429, Retry-After: 5).
    await clock.sleep(S)
    for (let t = 0; t < 36; t++) {
      refuse = t === 35
      await handlerFetch('https://api.example.com/v1/card/status')
      await clock.sleep(250)
    }
    await clock.sleep(10 * S)
    const reconciler = requests.map((r) => r.at - T0)
    // Counted twice, the handler's 4 a second leave no room under 6: from the moment they fill the
    // window the reconciler keeps only its floor (a tenth of the key's 6 a second: one per 1.67 s),
    // then waits for the 429's 5 s after the last one (at 9.75 s).
    const floor = reconciler.filter((t) => t >= 1500 && t < 9750)
    expect(floor.length).toBeGreaterThanOrEqual(4)
    expect(floor.slice(1).every((t, i) => t - floor[i] >= 1666)).toBe(true)
    expect(reconciler.filter((t) => t >= 9750 && t < 14_750)).toEqual([])
    expect(busiestWindow([...handlerRequests, ...requests.map((r) => r.at)], 1000)).toBeLessThanOrEqual(6)
    // Then back at its own share.
    expect(reconciler.filter((t) => t >= 14_750 && t < 20_000).length).toBeGreaterThanOrEqual(14)
    expect(
      busiestWindow(
        requests.map((r) => r.at),
        1000,
      ),
    ).toBeLessThanOrEqual(3)
  })
})
