// The kit's bench, reconciler section (issue 37): the settlement schedule against the fixed pace it
// replaced, in one run, on the built kit (dist/server/index.js) against a running sandbox.
//
// What is real: the kit's reconciler, store (PGlite or Postgres) and status fetcher, every status
// request over HTTP to the sandbox's partner path with the key, GET /v1/limits, the outbox and
// onUpdate. What is simulated: time. A simulated clock (test/unit/server/reconcile/simulatedClock.mjs)
// drives the reconciler and the sandbox's scheduled world (routes/scheduled.mjs, told the time in
// X-Sandbox-Clock), so days pass in minutes: it moves only when the reconciler's two loops and this
// bench's world all sleep, so a request, a query or a delivery takes no simulated time. The world's
// durations are the sandbox's choice (docs/sandbox.md), built from the rails' settlement labels, the
// same labels the schedule reads: it measures the schedule when the service keeps to what it says.
//
// The scenario: N payments (BENCH_RECONCILER_N, default 2000: about 5 minutes a backend on a shared
// 2-core machine; BENCH_RECONCILER_N=10000 is the full scenario, about five times that) of every
// kind created over 12 simulated hours; the reconciler's share of the key is BENCH_RECONCILER_RPS (default 5, a sixth of
// the sandbox key's 30); half an hour after the last creation the kit goes down for an hour (both
// runs), then the run goes on until every payment is final. The fixed pace runs on a replica
// (BENCH_RECONCILER_FIXED_N payments, default N/10, at that fraction of the rate: the same pressure
// per payment), to keep the run short; its per-hour figures are scaled up to N and say so. A
// replica's p99 rests on a tenth of the changes (about 400 at N = 2000): for the p99 comparison
// run it whole, BENCH_RECONCILER_FIXED_N=N (about as long again as the schedule's run).
//
// `run({ backend, openStore, sandbox, log })` → [{ measure, value }]. Alone:
//   node scripts/bench-kit/reconciler.mjs [pglite|postgres]   (builds dist/server if missing; starts
//   its own sandbox; postgres: Debian's postgresql 15, a throwaway cluster)
import { createSimulatedClock } from '../../test/unit/server/reconcile/simulatedClock.mjs'

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H
/** The simulated epoch: a Monday, 00:00 UTC. */
const T0 = Date.UTC(2026, 10, 2)
const CREATE_OVER = 12 * H
const DOWN_AT = CREATE_OVER + 30 * MIN
const DOWN_FOR = H
/** Past this, a payment still open is left out of "creation → final" (none was, in our runs). */
const HORIZON = CREATE_OVER + 8 * D
const KIT = new URL('../../dist/server/index.js', import.meta.url)

export async function run({ backend, openStore, sandbox, log = (line) => console.log(line) }) {
  const kit = await import(KIT.href)
  const n = envInt('BENCH_RECONCILER_N', 2000)
  const fixedN = envInt('BENCH_RECONCILER_FIXED_N', Math.max(1, Math.round(n / 10)))
  const rps = envNumber('BENCH_RECONCILER_RPS', 5)
  const seed = envInt('BENCH_RECONCILER_SEED', 37)
  const common = { kit, openStore, sandbox, seed, log }
  const label = (schedule, count) => (schedule === 'fixed' ? (count === n ? 'fixed pace' : `fixed pace, 1/${fmt(n / count)} replica`) : 'settlement schedule')
  const measures = [
    {
      measure: `reconciler, ${backend}: scenario (simulated clock)`,
      value: `${n} payments of every kind created over ${hours(CREATE_OVER)}, statuses moved by the sandbox's schedule; share ${rps} req/s of the key; kit down ${hours(DOWN_FOR)} from ${hours(DOWN_AT)}; run until every payment is final. Fixed pace: ${fixedN} payments at ${fmt((rps * fixedN) / n)} req/s`,
    },
  ]
  for (const [schedule, count] of [
    ['settlement', n],
    ['fixed', fixedN],
  ]) {
    const started = Date.now()
    const result = await simulate({ ...common, schedule, count, rps: (rps * count) / n, name: `${backend} ${label(schedule, count)}` })
    measures.push(...report(`reconciler, ${backend}, ${label(schedule, count)}`, result, n / count, Date.now() - started))
  }
  await control(sandbox, '/__sandbox/scheduled/clear', {})
  return measures
}

async function simulate({ kit, openStore, sandbox, seed, schedule, count, rps, name, log }) {
  const { payments } = await control(sandbox, '/__sandbox/scheduled/seed', { count, seed, start: T0, createOverMs: CREATE_OVER, clock: 'header' })
  const byKey = new Map(payments.map((p) => [`${p.kind}:${p.id}`, p]))
  const store = await openStore()
  const clock = createSimulatedClock({ start: T0, actors: 1 })
  const looks = new Map()
  /** Every request to the service (status and limits), by its start on the simulated clock. */
  const times = []
  let refused = 0
  let limitsReads = 0
  const complaints = []
  const service = kit.createStatusFetcher({
    apiBase: sandbox.apiBase,
    apiKey: sandbox.apiKey,
    fetch: async (url, init) => {
      const res = await fetch(url, { ...init, headers: { ...init?.headers, 'X-Sandbox-Clock': String(Math.round(clock.now())) } })
      if (res.status === 429) refused++
      return res
    },
  })
  const downtime = { back: Infinity, overdue: [], firstLook: new Map() }
  const fetchStatus = Object.assign(
    (kind, id, details) => {
      const key = `${kind}:${id}`
      const now = clock.now()
      looks.set(key, (looks.get(key) ?? 0) + 1)
      times.push(now)
      if (now >= downtime.back && !downtime.firstLook.has(key)) downtime.firstLook.set(key, now)
      return service(kind, id, details)
    },
    {
      limits: () => {
        limitsReads++
        times.push(clock.now())
        return service.limits()
      },
    },
  )
  const changes = []
  const finalAt = new Map()
  let passed = 0
  const onUpdate = (payment, previous) => {
    const p = byKey.get(`${payment.kind}:${payment.id}`)
    const now = clock.now()
    const at = (status) => p.steps.findIndex(([, s]) => s === status)
    const to = at(payment.status)
    const from = previous ? at(previous.status) : 0
    if (to > from) {
      changes.push({ changedAt: p.steps[to][0], ms: now - p.steps[to][0] })
      passed += to - from - 1
    }
    if (payment.final) finalAt.set(`${payment.kind}:${payment.id}`, now)
  }
  const options = { store, fetchStatus, onUpdate, requestsPerSecond: rps, schedule, clock, idleMs: 10 * MIN, log: (line) => complaints.push(line) }
  const startReconciler = () => {
    const reconciler = kit.createReconciler(options)
    reconciler.start()
    clock.actors += 2
    return reconciler
  }

  // The world: each payment recorded at its creation, as the handler records it (a card purchase
  // and a crypto deposit without a status: their creation answers none).
  let reconciler = startReconciler()
  let lastReport = T0
  const progress = () => {
    if (clock.now() - lastReport < 12 * H) return
    lastReport = clock.now()
    log(`  ${name}: ${hours(clock.now() - T0)} simulated, ${finalAt.size}/${count} final, ${times.length} requests`)
  }
  for (const [i, p] of payments.entries()) {
    await clock.sleep(p.createdAt - clock.now())
    await store.recordPayment({
      kind: p.kind,
      id: p.id,
      userId: `user_${i % 997}`,
      ...(p.status ? { status: p.status } : {}),
      ...(p.details ? { details: p.details } : {}),
      amount: p.amount,
      currency: p.currency,
      createdAt: new Date(p.createdAt),
    })
    progress()
  }
  // Down for an hour: no look, no delivery; the sandbox's statuses move on.
  await clock.sleep(T0 + DOWN_AT - clock.now())
  await reconciler.stop()
  clock.actors -= 2
  await clock.sleep(DOWN_FOR)
  downtime.back = clock.now()
  // (Read for the measure: the payments due while the kit was down, oldest due first.)
  const { rows } = await store.db.query(
    `SELECT kind, id FROM stablecoin_widget.payments WHERE open AND next_check_at <= $1::timestamptz ORDER BY next_check_at, created_at, kind, id`,
    [new Date(downtime.back).toISOString()],
  )
  downtime.overdue = rows.map((r) => `${r.kind}:${r.id}`)
  reconciler = startReconciler()
  while (finalAt.size < count && clock.now() < T0 + HORIZON) {
    await clock.sleep(10 * MIN)
    progress()
  }
  await reconciler.stop()
  await store.close()
  return { count, rps, payments, looks, times, refused, limitsReads, changes, passed, finalAt, downtime, complaints, end: clock.now() }
}

function report(prefix, r, scale, wallMs) {
  const span = Math.max(H, Math.max(...r.finalAt.values(), T0 + CREATE_OVER) - T0)
  const perHour = new Map()
  for (const t of r.times) perHour.set(Math.floor((t - T0) / H), (perHour.get(Math.floor((t - T0) / H)) ?? 0) + 1)
  const scaled = scale === 1 ? '' : ` (×${fmt(scale)}, scaled up from the replica)`
  const final = r.payments.filter((p) => r.finalAt.has(`${p.kind}:${p.id}`))
  const perPayment = final.map((p) => r.looks.get(`${p.kind}:${p.id}`) ?? 0)
  const byKind = {}
  for (const p of final) (byKind[p.kind] ??= []).push(r.looks.get(`${p.kind}:${p.id}`) ?? 0)
  const { back, overdue, firstLook } = r.downtime
  const outside = r.changes.filter((c) => c.changedAt < T0 + DOWN_AT || c.changedAt >= back).map((c) => c.ms)
  const during = r.changes.filter((c) => c.changedAt >= T0 + DOWN_AT && c.changedAt < back).map((c) => c.ms)
  const caughtUp = overdue.length ? Math.max(...overdue.map((k) => firstLook.get(k) ?? Infinity)) : back
  const order = overdue.filter((k) => firstLook.has(k)).sort((a, b) => firstLook.get(a) - firstLook.get(b))
  const rank = new Map(overdue.map((k, i) => [k, i]))
  const inversions = order.slice(1).filter((k, i) => rank.get(k) < rank.get(order[i])).length
  const afterBack = r.times.filter((t) => t >= back && t <= caughtUp)
  const rows = [
    [
      `status requests per simulated hour${scaled}: mean over ${hours(span)}; busiest hour`,
      `${fmt((r.times.length / (span / H)) * scale)}; ${fmt(Math.max(...perHour.values()) * scale)}`,
    ],
    [
      `requests per payment, creation → final: mean; p50 / p99 (${final.length} of ${r.count} final)`,
      `${fmt(mean(perPayment))}; ${pct(perPayment, 0.5)} / ${pct(perPayment, 0.99)}`,
    ],
    [
      'requests per payment by kind (mean)',
      Object.entries(byKind)
        .map(([kind, list]) => `${kind} ${fmt(mean(list))}`)
        .join(', '),
    ],
    [
      `change at the sandbox → onUpdate, simulated: p50 / p99 (${outside.length} changes outside the hour down)`,
      `${duration(pct(outside, 0.5))} / ${duration(pct(outside, 0.99))}`,
    ],
    ['statuses passed between two looks (never delivered; each payment still told its final one)', `${r.passed} of ${r.passed + r.changes.length}`],
    [
      `catch-up after ${hours(DOWN_FOR)} down (simulated clock): overdue at restart; all looked at after; busiest second; due order`,
      overdue.length === 0
        ? 'nothing overdue'
        : `${overdue.length}; ${duration(caughtUp - back)}; ${busiest(afterBack)} requests (share ${fmt(r.rps)}/s); ${inversions === 0 ? 'oldest due first' : `${inversions} of ${order.length} out of order`}`,
    ],
    [
      `changes during the hour down → onUpdate: p50 / p99 (${during.length})`,
      during.length ? `${duration(pct(during, 0.5))} / ${duration(pct(during, 0.99))}` : '—',
    ],
    [
      '429 from the sandbox; GET /v1/limits reads; lines the reconciler logged',
      `${r.refused}; ${r.limitsReads}; ${r.complaints.length}${r.complaints.length ? ` (first: ${r.complaints[0].slice(0, 200)})` : ''}`,
    ],
    ['wall time', duration(wallMs)],
  ]
  return rows.map(([measure, value]) => ({ measure: `${prefix}: ${measure}`, value }))
}

async function control(sandbox, path, body) {
  const res = await fetch(sandbox.apiBase + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`${path}: the sandbox answered ${res.status} ${await res.text()}`)
  return res.json()
}

function busiest(times) {
  let most = 0
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= 1000) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}
const mean = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : NaN)
function pct(list, q) {
  if (!list.length) return NaN
  const sorted = [...list].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
const fmt = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 100 ? Math.round(x).toLocaleString('en-US') : String(Math.round(x * 10) / 10)) : '—')
const hours = (ms) => `${fmt(ms / H)} h`
function duration(ms) {
  if (!Number.isFinite(ms)) return '—'
  if (ms < MIN) return `${fmt(ms / S)} s`
  if (ms < H) return `${fmt(ms / MIN)} min`
  return `${fmt(ms / H)} h`
}
function envInt(name, fallback) {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`)
  return n
}
function envNumber(name, fallback) {
  const value = process.env[name]
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!(n > 0)) throw new Error(`${name} must be a positive number`)
  return n
}

// Alone: a sandbox of its own (the partner path's reference data and the scheduled world), and a
// fresh store per run.
if (import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const backend = process.argv[2] ?? 'pglite'
  const { existsSync } = await import('node:fs')
  const { spawnSync } = await import('node:child_process')
  if (!existsSync(KIT)) spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.server.config.ts'], { stdio: 'inherit' })
  const { createSandboxServer } = await import('../../test/sandbox/server.mjs')
  const { referenceRoutes, SANDBOX_KEY } = await import('../../test/sandbox/routes/reference.mjs')
  const server = createSandboxServer({ allowedOrigins: [], routes: referenceRoutes().routes })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const sandbox = { apiBase: `http://127.0.0.1:${server.address().port}`, apiKey: SANDBOX_KEY }
  const kit = await import(KIT.href)
  let openStore = () => kit.openPaymentStore()
  let stopPostgres = () => {}
  if (backend === 'postgres') ({ openStore, stop: stopPostgres } = await throwawayPostgres(kit))
  try {
    const measures = await run({ backend, openStore, sandbox })
    for (const { measure, value } of measures) console.log(`${measure}: ${value}`)
  } finally {
    server.close()
    await stopPostgres()
  }
}

/** Debian's postgresql 15 in a temporary directory (as test/unit/server/store/throwawayPostgres.ts), a fresh database per store. */
async function throwawayPostgres(kit) {
  const { execFileSync } = await import('node:child_process')
  const { chownSync, mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const pg = (await import('pg')).default
  const bin = '/usr/lib/postgresql/15/bin'
  const dir = mkdtempSync(join(tmpdir(), 'scw-bench-pg-'))
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
  chownSync(dir, uid, uid)
  const as = (tool, args) => execFileSync('runuser', ['-u', 'postgres', '--', `${bin}/${tool}`, ...args], { stdio: 'pipe' })
  const data = join(dir, 'data')
  const port = 56000 + Math.floor(Math.random() * 1000)
  as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  as('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'])
  const admin = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 })
  const pools = []
  let made = 0
  return {
    async openStore() {
      const database = `bench_${++made}`
      await admin.query(`CREATE DATABASE ${database}`)
      const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database, max: 4 })
      pools.push(pool)
      return kit.openPaymentStore({ pool })
    },
    async stop() {
      await Promise.all([...pools, admin].map((p) => p.end()))
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
