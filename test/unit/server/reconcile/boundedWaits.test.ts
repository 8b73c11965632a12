// @vitest-environment node
// The reconciler's waits stay bounded whatever the others on the key do: a client of the handler
// cannot starve it (it keeps a floor of the key's rate), a hostile Retry-After or settlement label
// of the service cannot stop it for long, and a catch-up never bursts over its rate. On a simulated
// clock: nothing here waits on real time.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createKeyRate,
  createPartnerHandler,
  createReconciler,
  createStatusFetcher,
  openPaymentStore,
  StatusFetchError,
  type PaymentStore,
  type PaymentUpdate,
  type Reconciler,
  type ReconcilerOptions,
} from '../../../../src/server/index'
import { createSimulatedClock, type SimulatedClock } from './simulatedClock.mjs'

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H
const T0 = Date.UTC(2026, 10, 2, 9)
const LONGEST_HOLD = 600 * S

describe('hostile Retry-After', () => {
  const HOSTILE = [
    '9999999999',
    '99999999999',
    'Fri, 31 Dec 9999 23:59:59 GMT',
    'Thu, 01 Jan 1970 00:00:00 GMT',
    '1e9',
    '-1',
    'Infinity',
    'NaN',
    '0x7fffffff',
    ' 600 ',
    '',
    '0',
    '5, 5',
    'Mon, 32 Foo 2026 99:99:99 GMT',
    '+100000',
  ]

  it.each(HOSTILE)('a 429 to the handler with Retry-After %j holds the reconciler at most 10 min, and not a negative or endless time', async (value) => {
    let now = T0
    const keyRate = createKeyRate({ clock: { now: () => now, sleep: async () => {} } })
    const fetch = keyRate.wrapFetch((async () => new Response('{}', { status: 429, headers: { 'Retry-After': value } })) as unknown as typeof globalThis.fetch)
    // Many of them in a row: each is at most 10 min from its own moment.
    for (let i = 0; i < 50; i++) {
      await fetch('https://api.example/v1/limits')
      now += 1
    }
    const wait = keyRate.reconcilerWait()
    expect(Number.isFinite(wait)).toBe(true)
    expect(wait).toBeGreaterThanOrEqual(0)
    expect(wait).toBeLessThanOrEqual(LONGEST_HOLD)
  })

  it.each(HOSTILE)('a 429 to the reconciler (createStatusFetcher) with Retry-After %j: a bounded hold', async (value) => {
    const fetchStatus = createStatusFetcher({
      apiBase: 'https://api.example',
      apiKey: 'sk_test_key',
      fetch: (async () => new Response('{}', { status: 429, headers: { 'Retry-After': value } })) as unknown as typeof fetch,
    })
    const error = await fetchStatus('card', 'cd_1', undefined).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StatusFetchError)
    const hold = (error as StatusFetchError).retryAfterMs
    expect(hold === undefined || (Number.isFinite(hold) && hold > 0 && hold <= LONGEST_HOLD)).toBe(true)
  })
})

let store: PaymentStore
beforeAll(async () => {
  store = await openPaymentStore()
}, 60_000)
afterAll(() => store?.close())

let clock: SimulatedClock
let looks: Array<{ at: number; kind: string; id: string }>
let delivered: Array<PaymentUpdate & { at: number }>
let running: Reconciler[]
let timelines: Map<string, Array<[number, Record<string, unknown>]>>
let limits: unknown
beforeEach(async () => {
  await store.db.query('DELETE FROM stablecoin_widget.changes')
  await store.db.query('DELETE FROM stablecoin_widget.payments')
  clock = createSimulatedClock({ start: T0, actors: 1 })
  looks = []
  delivered = []
  running = []
  timelines = new Map()
  limits = { limits: [] }
  return async () => {
    await Promise.all(running.map((r) => r.stop()))
  }
})

const fetchStatus = Object.assign(
  async (kind: string, id: string) => {
    looks.push({ at: clock.now(), kind, id })
    const record = (timelines.get(`${kind}:${id}`) ?? []).filter(([from]) => from <= clock.now()).at(-1)?.[1] ?? { status: 'pending', environment: 'sandbox' }
    return { id, ...record }
  },
  { limits: async () => limits },
)

function start(options: Partial<ReconcilerOptions> = {}) {
  const reconciler = createReconciler({
    store,
    fetchStatus,
    onUpdate: (payment) => void delivered.push({ ...payment, at: clock.now() }),
    requestsPerSecond: 2,
    clock,
    idleMs: H,
    log: () => {},
    ...options,
  })
  reconciler.start()
  clock.actors += 2
  running.push(reconciler)
  return reconciler
}

describe('a busy handler on the same key', { timeout: 120_000 }, () => {
  it('(control) without other traffic, a new card payment is looked at several times in 10 min', async () => {
    await store.recordPayment({ kind: 'card', id: 'cd_control', userId: 'bob', createdAt: new Date(T0) })
    const keyRate = createKeyRate({ requestsPerSecond: 10, clock })
    start({ keyRate })
    await clock.sleep(10 * MIN)
    expect(looks.filter((l) => l.id === 'cd_control' && l.at > T0 + S).length).toBeGreaterThan(3)
  })

  it("an anonymous client sending GET /limits at 6 a second (60% of the key's 10) for 10 min: the reconciler keeps its floor and still looks", async () => {
    await store.recordPayment({ kind: 'card', id: 'cd_starved', userId: 'bob', createdAt: new Date(T0) })
    const keyRate = createKeyRate({ requestsPerSecond: 10, clock })
    let service = 0
    const handle = createPartnerHandler({
      apiBase: 'https://api.example',
      apiKey: 'sk_test_key',
      allowedOrigins: [],
      allowAnonymous: true,
      keyRate,
      fetch: (async () => (service++, Response.json({ limits: [] }))) as unknown as typeof fetch,
      log: () => {},
    })
    start({ keyRate })
    // The client: never over the key's rate (the service never says 429), just steady.
    for (let t = 0; t < 10 * MIN; t += 167) {
      await handle(new Request('http://localhost/limits'))
      await clock.sleep(167)
    }
    expect(service).toBeGreaterThan(3000)
    // Before the floor: one look at 0 s, then none in 10 min (the handler's 6 a second, counted
    // twice, filled the key's 10, while the key itself had 4 a second to spare).
    expect(looks.filter((l) => l.id === 'cd_starved' && l.at > T0 + S).map((l) => (l.at - T0) / S)).not.toEqual([])
  })
})

describe('absurd settlement labels from GET /v1/limits', { timeout: 120_000 }, () => {
  const settleAt = (id: string, settledAt: number) =>
    timelines.set(`payout:${id}`, [
      [T0, { status: 'sent', rail: 'sepa', fiatCurrency: 'EUR' }],
      [settledAt, { status: 'settled', rail: 'sepa', fiatCurrency: 'EUR' }],
    ])
  const label = (settlement: string) => ({ limits: [{ currency: 'EUR', rail: 'sepa', direction: 'payout', max: null, min: null, settlement }] })

  it('(control) a payout sent on a rail with an unknown label is seen settled within 2 h', async () => {
    limits = label('whenever')
    await store.recordPayment({ kind: 'payout', id: 'po_control', userId: 'alice', status: 'sent', amount: '10', currency: 'EUR', createdAt: new Date(T0) })
    settleAt('po_control', T0 + 3 * D)
    start()
    await clock.sleep(4 * D)
    const seen = delivered.find((d) => d.id === 'po_control' && d.status === 'settled')
    expect(seen && (seen.at - (T0 + 3 * D)) / H).toBeLessThanOrEqual(2)
  })

  it.each(['t+36500', 't+1..t+99999999999999999999', 'under_99999999d'])(
    "label %j: a payout that settles on day 3 is still seen within 6 h (the schedule's longest gap)",
    async (settlement) => {
      limits = label(settlement)
      const id = `po_${settlement.replace(/\W/g, '')}`
      await store.recordPayment({ kind: 'payout', id, userId: 'alice', status: 'sent', amount: '10', currency: 'EUR', createdAt: new Date(T0) })
      settleAt(id, T0 + 3 * D)
      start()
      await clock.sleep(10 * D)
      const seen = delivered.find((d) => d.id === id && d.status === 'settled')
      // Before the bound: looks at 0.5 h, 2 h, 8 h, 32 h, then 128 h: the settlement of day 3 was
      // delivered on day 5.3, 56 h late; one on day 22 never (dropped at 30 days).
      expect(seen === undefined ? Infinity : (seen.at - (T0 + 3 * D)) / H).toBeLessThanOrEqual(6)
    },
  )

  it('label t+36500: a payout that settles on day 22 is delivered before it is dropped at 30 days', async () => {
    limits = label('t+36500')
    await store.recordPayment({ kind: 'payout', id: 'po_day22', userId: 'alice', status: 'sent', amount: '10', currency: 'EUR', createdAt: new Date(T0) })
    settleAt('po_day22', T0 + 22 * D)
    start()
    await clock.sleep(31 * D)
    expect(delivered.filter((d) => d.id === 'po_day22').map((d) => d.status)).toEqual(['settled'])
  })
})

describe('bursts', { timeout: 120_000 }, () => {
  it("after a 10-minute hold from a hostile Retry-After, 200 overdue payments are caught up without going over the reconciler's rate", async () => {
    for (let i = 0; i < 200; i++) await store.recordPayment({ kind: 'card', id: `cd_${i}`, userId: 'bob', createdAt: new Date(T0) })
    const keyRate = createKeyRate({ clock })
    keyRate.rateLimited(Number.MAX_SAFE_INTEGER)
    start({ keyRate, requestsPerSecond: 3 })
    await clock.sleep(15 * MIN)
    const times = looks.map((l) => l.at).sort((a, b) => a - b)
    expect(times.length).toBeGreaterThan(0)
    expect(times[0] - T0).toBeLessThanOrEqual(LONGEST_HOLD + S)
    let busiest = 0
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= S) j++
      busiest = Math.max(busiest, i - j + 1)
    }
    expect(busiest).toBeLessThanOrEqual(3)
  })
})
