#!/usr/bin/env node
// `npm run bench:kit`: the partner-backend kit (stablecoin-widget/server) measured on PGlite and on
// a throwaway Postgres 15, against the sandbox service. One table (measure | PGlite | Postgres 15),
// then notes on the setup and the machine it ran on. Builds what it measures (dist/server, by
// `node scripts/build.mjs --partners test/fixtures/partners.json`), then:
//  - handler: requests per second and p50/p99 latency of a status read and of a creation at 1, 10
//    and 100 concurrent users, the kit in a process of its own pinned to core 0 (its PGlite in it),
//    the load, the sandbox service and Postgres on core 1 (scripts/bench-kit/handler.mjs);
//  - store: 10⁵ and 10⁶ payments, the reconciler's claim of due payments, the size on disk and
//    the time to record one payment, in a process pinned to core 0 (scripts/bench-kit/store.mjs);
//  - reconciler: whatever scripts/bench-kit/reconciler.mjs measures (its run() answers the rows).
//
// Settings (environment):
//   BENCH_KIT_QUICK=1          a trial run: 10⁴ payments, 2 s per load point, fewer samples
//   BENCH_KIT_BACKENDS         pglite,postgres
//   BENCH_KIT_SECTIONS         handler,store,reconciler
//   BENCH_KIT_SIZES            1e5,1e6 (the store's sizes, filled in order)
//   BENCH_KIT_USERS            1,10,100 (concurrent users per load point)
//   BENCH_KIT_SECONDS          10 per load point (after BENCH_KIT_WARM_SECONDS, 2, not counted)
//   BENCH_KIT_BUILD=0          measure dist/server as it is (no build)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { OPERATIONS, measurePoint, prepareUsers, processTree, startKit, startSandbox } from './bench-kit/handler.mjs'
import { runStoreSection } from './bench-kit/store.mjs'
import { affinity, loadAverage, machine, mb, ms, pinSelf, startPostgres } from './bench-kit/util.mjs'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
process.chdir(ROOT)
const started = Date.now()
const loadBefore = loadAverage()
const env = process.env
const QUICK = env.BENCH_KIT_QUICK === '1'
const list = (value, fallback) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
const BACKENDS = list(env.BENCH_KIT_BACKENDS, 'pglite,postgres')
const SECTIONS = list(env.BENCH_KIT_SECTIONS, 'handler,store,reconciler')
const SIZES = list(env.BENCH_KIT_SIZES, QUICK ? '1e4' : '1e5,1e6')
  .map(Number)
  .sort((a, b) => a - b)
const USERS = list(env.BENCH_KIT_USERS, '1,10,100').map(Number)
const SECONDS = Number(env.BENCH_KIT_SECONDS ?? (QUICK ? 2 : 10))
const WARM = Number(env.BENCH_KIT_WARM_SECONDS ?? (QUICK ? 0.5 : 2))
const SAMPLES = QUICK ? { claim: 10, record: 30 } : { claim: 50, record: 300 }
// The sandbox's partner path allows 30 requests per second per key (test/sandbox/rateLimit.mjs);
// the handler's load runs against one that allows this many, so that its 429s are not measured.
const RAISED_KEY_RATE = 1_000_000
const LABEL = { pglite: 'PGlite', postgres: 'Postgres 15' }
for (const b of BACKENDS) if (!LABEL[b]) throw new Error(`BENCH_KIT_BACKENDS: no backend ${b} (pglite, postgres)`)
for (const s of SECTIONS) if (!['handler', 'store', 'reconciler'].includes(s)) throw new Error(`BENCH_KIT_SECTIONS: no section ${s}`)
if (SIZES.some((n) => !Number.isInteger(n) || n < 20)) throw new Error('BENCH_KIT_SIZES: whole numbers of payments, at least 20')

if (env.BENCH_KIT_BUILD !== '0') {
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--partners', 'test/fixtures/partners.json'], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`bench:kit: the build failed (${built.status})`)
}

// Core 0 for what is measured (the kit and its PGlite, the store's client), core 1 for the rest
// (this process and its load, the sandbox service, the Postgres server). On one core, all share it.
const twoCores = (spawnSync('nproc', [], { encoding: 'utf8' }).stdout?.trim() ?? '1') !== '1'
const KIT_CPU = twoCores ? 0 : undefined
const REST_CPU = twoCores ? 1 : undefined
const pinned = REST_CPU !== undefined && pinSelf(REST_CPU)

const say = (line) => process.stderr.write(`[bench:kit] ${line}\n`)
const tmp = mkdtempSync(join(tmpdir(), 'scw-bench-kit-'))
// Everything started below is stopped here, in reverse, once: at the end, on a failure, on Ctrl-C.
const cleanups = []
let cleaned
const cleanup = () =>
  (cleaned ??= (async () => {
    for (const stop of cleanups.reverse())
      await Promise.resolve()
        .then(stop)
        .catch((error) => say(`cleanup: ${error.message}`))
    rmSync(tmp, { recursive: true, force: true })
  })())
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => cleanup().then(() => process.exit(130)))

const results = { handler: {}, store: {}, reconciler: {} }
const notes = { handler: {}, store: {} }
let postgres
try {
  if (BACKENDS.includes('postgres')) {
    postgres = await startPostgres({ cpu: REST_CPU })
    cleanups.push(() => postgres.stop())
    say(`${postgres.version} on port ${postgres.port}`)
  }

  if (SECTIONS.includes('handler')) {
    const sandbox = await startSandbox({ keyRate: RAISED_KEY_RATE })
    cleanups.push(() => sandbox.stop())
    for (const backend of BACKENDS) {
      const kit = await startKit({ backend, pgPort: postgres?.port, apiBase: sandbox.apiBase, apiKey: sandbox.apiKey, dataDir: tmp, cpu: KIT_CPU })
      cleanups.push(() => kit.stop())
      notes.handler.kitCpus = affinity(kit.pid)
      const users = await prepareUsers(kit.base, Math.max(...USERS))
      const points = []
      for (const operation of Object.keys(OPERATIONS)) {
        for (const concurrency of USERS) {
          const others = () => [sandbox.pid, ...(backend === 'postgres' ? processTree(postgres.pid()) : [])]
          const point = await measurePoint({ kit, users, operation, concurrency, seconds: SECONDS, warmSeconds: WARM, others })
          // The sandbox keeps a log of every request: emptied between points.
          await fetch(`${sandbox.apiBase}/__sandbox/reset`, { method: 'POST' })
          say(
            `${backend} ${operation} × ${concurrency}: ${point.rps.toFixed(0)} req/s, p50 ${ms(point.p50)}, p99 ${ms(point.p99)}, CPU kit ${(point.kitCpu * 100).toFixed(0)}%, rest ${(point.restCpu * 100).toFixed(0)}% ${JSON.stringify(point.statuses)}`,
          )
          points.push(point)
        }
      }
      results.handler[backend] = points
      await kit.stop()
    }
    await sandbox.stop()
  }

  if (SECTIONS.includes('store')) {
    for (const backend of BACKENDS) {
      say(`store on ${backend}: filling ${SIZES.join(', ')} payments`)
      results.store[backend] = await runStoreSection({
        cpu: KIT_CPU,
        backend,
        pgPort: postgres?.port,
        pgDir: postgres?.dir,
        tmp,
        sizes: SIZES,
        samples: SAMPLES,
        onChild: (stop) => cleanups.push(stop),
      })
    }
  }

  if (SECTIONS.includes('reconciler')) {
    const file = join(ROOT, 'scripts/bench-kit/reconciler.mjs')
    if (!existsSync(file)) {
      for (const backend of BACKENDS) results.reconciler[backend] = [{ measure: 'not measured', value: 'scripts/bench-kit/reconciler.mjs missing' }]
    } else {
      const { run } = await import(pathToFileURL(file).href)
      // The sandbox service as a partner meets it: the partner path at the sandbox's own key rate.
      const sandbox = await startSandbox({})
      cleanups.push(() => sandbox.stop())
      const kit = await import(pathToFileURL(join(ROOT, 'dist/server/index.js')).href)
      for (const backend of BACKENDS) {
        const openStore = await storeOpener(kit, backend)
        say(`reconciler on ${backend}`)
        results.reconciler[backend] = await run({
          backend,
          openStore,
          sandbox: { apiBase: sandbox.apiBase, apiKey: sandbox.apiKey },
          log: (line) => say(`reconciler ${backend}: ${line}`),
        })
      }
      await sandbox.stop()
    }
  }
} finally {
  await cleanup()
}
const loadAfter = loadAverage()
const runSeconds = (Date.now() - started) / 1000

/** A fresh, empty store on the backend for each call (for the reconciler's run); closing it removes it. */
async function storeOpener(kit, backend) {
  let count = 0
  if (backend === 'pglite') {
    return async () => {
      const dataDir = mkdtempSync(join(tmp, 'scw-bench-reconciler-'))
      const store = await kit.openPaymentStore({ dataDir })
      return { ...store, close: async () => (await store.close(), rmSync(dataDir, { recursive: true, force: true })) }
    }
  }
  const { default: pg } = await import('pg')
  return async () => {
    const name = `bench_reconciler_${process.pid}_${++count}`
    const admin = new pg.Client({ host: '127.0.0.1', port: postgres.port, user: 'postgres', database: 'postgres' })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const pool = new pg.Pool({ host: '127.0.0.1', port: postgres.port, user: 'postgres', database: name })
    const store = await kit.openPaymentStore({ pool })
    return {
      ...store,
      close: async () => {
        await store.close()
        await pool.end()
        await admin.query(`DROP DATABASE IF EXISTS ${name}`)
        await admin.end()
      },
    }
  }
}

// ——— the table ———
const rows = []
const section = (title) => rows.push({ section: title })
const row = (measure, cell) => rows.push({ measure, cells: BACKENDS.map((b) => cell(b) ?? '–') })
const n = (x) => Math.round(x).toLocaleString('en-US')
const pow = (size) => (Number.isInteger(Math.log10(size)) ? `10${'⁰¹²³⁴⁵⁶⁷⁸⁹'[Math.log10(size)]}` : n(size))

if (SECTIONS.includes('handler')) {
  section(`handler over HTTP, kit on one core: requests/s · p50 / p99 latency · CPU of the kit / of the rest (${SECONDS} s per point)`)
  for (const operation of Object.keys(OPERATIONS)) {
    for (const concurrency of USERS) {
      row(`${OPERATIONS[operation].label}, ${concurrency} user${concurrency === 1 ? '' : 's'}`, (b) => {
        const p = results.handler[b]?.find((x) => x.operation === operation && x.concurrency === concurrency)
        if (!p) return undefined
        const refused = p.requests - p.ok
        const other = refused
          ? ` · ${refused} not 2xx (${Object.entries(p.statuses)
              .filter(([s]) => !(s >= 200 && s < 300))
              .map(([s, c]) => `${s}×${c}`)
              .join(', ')})`
          : ''
        return `${n(p.rps)}/s · ${ms(p.p50)} / ${ms(p.p99)} · CPU ${(p.kitCpu * 100).toFixed(0)}% / ${(p.restCpu * 100).toFixed(0)}%${other}`
      })
    }
  }
}
if (SECTIONS.includes('store')) {
  for (const size of SIZES) {
    const at = (b) => results.store[b]?.sizes.find((s) => s.size === size)
    const open = at(BACKENDS[0])?.counts
    section(`store with ${pow(size)} payments (${open ? `${n(open.open)} open, ${n(open.due)} of them due; ${n(open.changes)} outbox rows` : ''})`)
    const both = (t) => t && `${ms(t.p50)} / ${ms(t.p99)}`
    row('fill to this size (INSERT … SELECT generate_series, outbox included)', (b) => at(b) && `${(at(b).fillMs / 1000).toFixed(1)} s`)
    row(`claim of due payments (the reconciler's, 15 at a time), p50 / p99`, (b) => both(at(b)?.claim))
    row('retireStale (runs before each claim), p50 / p99', (b) => both(at(b)?.retire))
    row('recordPayment (one creation recorded), p50 / p99', (b) => both(at(b)?.record))
    row('ownerOf (before each status read), p50 / p99', (b) => both(at(b)?.owned))
    row('payments: table + indexes (pg_total_relation_size)', (b) => at(b) && mb(at(b).bytes.table))
    row('outbox (changes): table + indexes', (b) => at(b) && mb(at(b).bytes.changes))
    row('the database (pg_database_size)', (b) => at(b) && mb(at(b).bytes.database))
    row('data directory on disk (du, WAL included)', (b) => (at(b)?.bytes.du !== undefined ? mb(at(b).bytes.du) : undefined))
  }
}
if (SECTIONS.includes('reconciler')) {
  section('reconciler (scripts/bench-kit/reconciler.mjs)')
  const measures = [...new Set(BACKENDS.flatMap((b) => (results.reconciler[b] ?? []).map((r) => r.measure)))]
  for (const measure of measures) row(measure, (b) => (results.reconciler[b] ?? []).find((r) => r.measure === measure)?.value?.toString())
}

const header = ['measure', ...BACKENDS.map((b) => LABEL[b])]
const lines = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`]
for (const r of rows) lines.push(r.section ? `| **${r.section}** |${' |'.repeat(BACKENDS.length)}` : `| ${r.measure} | ${r.cells.join(' | ')} |`)

const m = machine()
const anyStore = Object.values(results.store)[0]
const pgStore = results.store.postgres
const pgliteStore = results.store.pglite
const out = ['', ...lines, '']
if (SECTIONS.includes('handler')) {
  out.push(
    `Handler: the built kit (dist/server/index.js) served by the bench's minimal node:http wrapper (the kit's Node adapter is not in yet), in a process of its own pinned to CPU ${notes.handler.kitCpus ?? '?'}; its PGlite runs in that process, Postgres in its own processes${pinned ? ' on CPU 1' : ''}. ` +
      `The load: ${USERS.join(', ')} concurrent users (one bearer token and one keep-alive connection each, the next request as soon as the last is answered), from the bench's process${pinned ? ' on CPU 1' : ''}, with ${WARM} s of warm-up not counted. ` +
      `Upstream: the sandbox service (test/sandbox/server.mjs with its card routes, no chains), its own process${pinned ? ' on CPU 1' : ''}, with the partner path's per-key rate raised from 30/s to ${n(RAISED_KEY_RATE)}/s (its KEY_RATE, set before the server is made): every figure includes the kit's real HTTP request to the service and the service's answer. ` +
      "Status read: POST /partner/card/status of a purchase the user owns (ownerOf, then forwarded). Creation: POST /partner/card/purchase (forwarded, then recordPayment); the store starts empty and grows with the creations. No user limits configured. CPU: user + system time over the point's wall time (100% is one core), of the kit's process, and of the rest (the load, the sandbox service, the Postgres server) on the other core: where neither is near 100%, something else held the cores (the machine's other load).",
  )
}
if (SECTIONS.includes('store')) {
  out.push(
    '',
    `Store: the built kit's openPaymentStore (PGlite with a dataDir, or a pg Pool), in a process pinned to CPU ${KIT_CPU ?? 'any'}; filled by scripts/bench-kit/store.mjs FILL_SQL: 40% card, 20% bank deposits, 20% bank payouts, 5% card payouts, 15% crypto deposits (with their receipt); 20 payments per user; 2% open (created in the last 30 days; next look from a minute before to 10 minutes after its insert, so the share due grows while the fill runs: the section's heading gives the count when measured), 98% final (created over a year, each with its status record and two delivered outbox rows). ` +
      `The claim: claimDuePayments from ${anyStore?.claimFrom ?? '?'}, 15 at a time with a 30 s lease (the reconciler's default batch at its default rate), each run inside a transaction rolled back after it. ` +
      `Postgres: VACUUM ANALYZE after each fill (what autovacuum does); PGlite: not analysed (it has no autovacuum). ` +
      `Plans at ${pow(SIZES.at(-1))}: ${BACKENDS.filter((b) => results.store[b])
        .map((b) => `${LABEL[b]}: claim ${results.store[b].sizes.at(-1).plan.claim}; retireStale ${results.store[b].sizes.at(-1).plan.retire}`)
        .join('. ')}. ` +
      `Durability as each runs by default: ${pgliteStore ? `PGlite (${pgliteStore.settings.version.split(' on ')[0]}) fsync=${pgliteStore.settings.fsync}` : ''}${pgliteStore && pgStore ? '; ' : ''}${pgStore ? `Postgres (${pgStore.settings.version.split(' on ')[0]}) fsync=${pgStore.settings.fsync}, synchronous_commit=${pgStore.settings.synchronous_commit}, shared_buffers ${pgStore.settings.shared_buffers}` : ''}. ` +
      "Postgres's data directory is the whole cluster (its template databases too).",
  )
}
out.push(
  '',
  `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.date}. Load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}. Run time ${Math.floor(runSeconds / 60)} min ${Math.round(runSeconds % 60)} s${QUICK ? ' (BENCH_KIT_QUICK=1: a trial run)' : ''}.`,
)
console.log(out.join('\n'))
process.exit(0)
