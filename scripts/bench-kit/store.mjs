// `npm run bench:kit`, the store section: a store of the built kit (openPaymentStore) filled with
// 10⁵ then 10⁶ payments, and at each size the reconciler's claim of due payments, the size on disk
// and the time to record one payment. Run by the bench in a child process pinned to one core
// (`node scripts/bench-kit/store.mjs '<json>'`, which prints one line `RESULT <json>`), so that
// PGlite (in this process) and the pg client measure on the core the handler gets.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { quantile } from './util.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const S = 'stablecoin_widget'

/**
 * The fill: payments from..to (1-based numbers), one INSERT … SELECT generate_series whose rows
 * also feed the outbox (changes) in the same statement. What a partner's store holds after a while:
 *  - kinds: 40% card purchases, 20% bank deposits, 20% bank payouts, 5% card payouts, 15% crypto
 *    deposits (their details: provider and the receipt the kit read, one Transfer log);
 *  - users: one per 20 payments (numbers 20k to 20k+19); amounts 20 to 2,020 in EUR, GBP or USD (none for crypto);
 *  - 2% open (still followed): created within the last 30 days (the reconciler's default
 *    followForMs), half of them not yet observed; next look from a minute before to 10 minutes (its
 *    default maxPollIntervalMs) after the row's insert: about 9% are due as inserted, more as the
 *    fill goes on (the bench counts them when it measures);
 *  - 98% final, created over the last year: completed/settled/done mostly, some failed, returned,
 *    rejected, cancelled or expired; each with its last status record and two delivered changes
 *    in the outbox (the status after creation, then the final one), as the reconciler leaves them.
 */
export const FILL_SQL = `
WITH g AS (
  SELECT n, md5(n::text) AS h, abs(hashtext('o' || n)) % 100 < 2 AS open, abs(hashtext('r' || n)) % 100 AS r,
    CASE WHEN n % 20 < 8 THEN 'card' WHEN n % 20 < 12 THEN 'bankDeposit' WHEN n % 20 < 16 THEN 'payout' WHEN n % 20 < 17 THEN 'cardPayout' ELSE 'deposit' END AS kind
  FROM generate_series($1::bigint, $2::bigint) AS n
), p AS (
  SELECT n, h, open, kind,
    CASE kind WHEN 'card' THEN 'cp_' || left(h, 16) WHEN 'bankDeposit' THEN 'bd_' || left(h, 16) WHEN 'payout' THEN 'po_' || left(h, 16)
      WHEN 'cardPayout' THEN 'cpo_' || left(h, 16) ELSE 'relay:0x' || h || md5(h) END AS id,
    'user_' || (n / 20) AS user_id,
    CASE WHEN kind = 'deposit' THEN NULL ELSE (20 + (abs(hashtext('a' || n)) % 200000) / 100.0)::numeric END AS amount,
    CASE WHEN kind = 'deposit' THEN NULL ELSE (ARRAY['EUR', 'EUR', 'GBP', 'USD'])[1 + n % 4] END AS currency,
    now() - (abs(hashtext('c' || n)) % CASE WHEN open THEN 2592000 ELSE 31536000 END) * interval '1 second' AS created_at,
    CASE kind
      WHEN 'card' THEN CASE WHEN open THEN (ARRAY['pending', 'processing'])[1 + r % 2] WHEN r < 90 THEN 'completed' WHEN r < 96 THEN 'failed' WHEN r < 98 THEN 'cancelled' ELSE 'expired' END
      WHEN 'bankDeposit' THEN CASE WHEN open THEN (ARRAY['awaiting_funds', 'received', 'converting', 'expired'])[1 + r % 4] WHEN r < 97 THEN 'settled' ELSE 'returned' END
      WHEN 'deposit' THEN CASE WHEN open THEN 'pending' WHEN r < 98 THEN 'done' ELSE 'failed' END
      ELSE CASE WHEN open THEN (ARRAY['pending', 'converting', 'sent'])[1 + r % 3] WHEN r < 95 THEN 'settled' WHEN r < 98 THEN 'rejected' ELSE 'returned' END
    END AS status,
    CASE kind WHEN 'card' THEN 'processing' WHEN 'bankDeposit' THEN 'received' WHEN 'deposit' THEN 'pending' ELSE 'sent' END AS middle
  FROM g
), rows AS (
  SELECT p.*,
    CASE WHEN kind = 'deposit' THEN jsonb_build_object('provider', 'relay', 'receipt', jsonb_build_object('txHash', '0x' || h || md5(h),
      'logs', jsonb_build_array(jsonb_build_object('address', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        'topics', jsonb_build_array('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', '0x000000000000000000000000' || left(md5(user_id), 40), '0x000000000000000000000000' || left(h, 32) || left(md5(h), 8))))))
    END AS details,
    CASE WHEN open AND n % 2 = 0 THEN NULL ELSE jsonb_strip_nulls(jsonb_build_object('id', id, 'status', status, 'environment', 'production',
      'fiatAmount', amount::text, 'fiatCurrency', currency, 'updatedAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'txHash', CASE WHEN status IN ('completed', 'settled', 'done') THEN '0x' || md5(id) || md5(h) END,
      'bankReference', CASE WHEN kind IN ('payout', 'bankDeposit') THEN 'SCW' || upper(left(h, 12)) END)) END AS record
  FROM p
), ins AS (
  INSERT INTO ${S}.payments (kind, id, user_id, details, amount, currency, created_at, status, record, version, open, interval_ms, next_check_at)
  SELECT kind, id, user_id, details, amount, currency, created_at, status, record,
    CASE WHEN open THEN (n % 2)::integer ELSE 2 END, open,
    CASE WHEN open THEN 5000 * (1 + n % 120)::integer ELSE 600000 END,
    CASE WHEN open THEN now() + ((abs(hashtext('t' || n)) % 660) - 60) * interval '1 second' ELSE created_at + interval '10 minutes' END
  FROM rows
  RETURNING kind, id, status, record, open, created_at
)
INSERT INTO ${S}.changes (kind, id, status, previous_status, record, previous_record, final, observed_at, delivered_at, attempts, next_attempt_at)
SELECT ins.kind, ins.id,
  CASE step WHEN 1 THEN m.middle ELSE ins.status END,
  CASE step WHEN 1 THEN NULL ELSE m.middle END,
  CASE step WHEN 1 THEN jsonb_set(ins.record, '{status}', to_jsonb(m.middle)) ELSE ins.record END,
  CASE step WHEN 1 THEN NULL ELSE jsonb_set(ins.record, '{status}', to_jsonb(m.middle)) END,
  step = 2, ins.created_at + step * interval '2 minutes', ins.created_at + step * interval '2 minutes', 1, ins.created_at + step * interval '2 minutes'
FROM ins
JOIN LATERAL (SELECT CASE ins.kind WHEN 'card' THEN 'processing' WHEN 'bankDeposit' THEN 'received' WHEN 'deposit' THEN 'pending' ELSE 'sent' END AS middle) m ON true
CROSS JOIN generate_series(1, 2) AS step
WHERE NOT ins.open`

/** The reconciler's claim, as the kit runs it: exported by the built kit, else loaded from its source. */
async function findClaim(kit, log) {
  if (typeof kit.claimDuePayments === 'function') return { claim: kit.claimDuePayments, retire: kit.retireStale, from: 'the built kit (dist/server/index.js)' }
  // Not exported: the exact function from src/server/**, wherever it lives now, through Vite (TypeScript).
  const files = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.ts$/.test(entry.name) && /export (async )?function claimDuePayments\b/.test(readFileSync(path, 'utf8'))) files.push(path)
    }
  }
  walk(join(ROOT, 'src/server'))
  if (files.length !== 1) throw new Error(`bench:kit: claimDuePayments is exported by ${files.length} files of src/server (expected one)`)
  const file = `/${relative(ROOT, files[0])}`
  const { createServer } = await import('vite')
  const vite = await createServer({
    root: ROOT,
    configFile: false,
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: 'custom',
    logLevel: 'silent',
    optimizeDeps: { noDiscovery: true },
  })
  try {
    const module = await vite.ssrLoadModule(file)
    log?.(`claimDuePayments from ${file}`)
    return {
      claim: module.claimDuePayments,
      retire: module.retireStale,
      from: `${file.slice(1)} (not exported by the built kit: loaded from source through Vite, the same SQL)`,
    }
  } finally {
    await vite.close()
  }
}

/**
 * p50 and p99 (ms) of `runs` calls of `work`, after `warm` untimed ones: the call's own duration,
 * or the number of ms it answers (a work that times only its part).
 */
async function time(runs, work, warm = 3) {
  for (let i = 0; i < warm; i++) await work(-1 - i)
  const took = []
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint()
    const own = await work(i)
    took.push(typeof own === 'number' ? own : Number(process.hrtime.bigint() - t) / 1e6)
  }
  took.sort((a, b) => a - b)
  return { p50: quantile(took, 0.5), p99: quantile(took, 0.99), runs }
}

/** In the child: the whole section on one backend. */
export async function measureStore({ backend, pgPort, pgDir, tmp, sizes, samples, batch = 15 }) {
  const log = (line) => process.stderr.write(`[bench:kit store ${backend}] ${line}\n`)
  const kit = await import(pathToFileURL(join(ROOT, 'dist/server/index.js')).href)
  const { claim, retire, from } = await findClaim(kit, log)
  let store
  let pool
  let dataDir
  let admin
  const dbName = `bench_store_${process.pid}`
  const out = { backend, claimFrom: from, sizes: [] }
  try {
    if (backend === 'pglite') {
      dataDir = mkdtempSync(join(tmp ?? tmpdir(), 'scw-bench-store-'))
      store = await kit.openPaymentStore({ dataDir })
    } else {
      const { default: pg } = await import('pg')
      admin = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: 'postgres' })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${dbName}`)
      pool = new pg.Pool({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: dbName, max: 10 })
      store = await kit.openPaymentStore({ pool })
    }
    const db = store.db
    const setting = async (name) => (await db.query(`SELECT current_setting('${name}') AS v`)).rows[0].v
    out.settings = {
      fsync: await setting('fsync'),
      synchronous_commit: await setting('synchronous_commit'),
      shared_buffers: await setting('shared_buffers'),
      version: (await db.query('SELECT version() AS v')).rows[0].v,
    }
    let filled = 0
    let recorded = 0
    for (const size of sizes) {
      // Filled up to this size in chunks of 10⁵ (one statement each: the memory of one statement stays small).
      const t0 = Date.now()
      while (filled < size) {
        const to = Math.min(size, filled + 100_000)
        await db.query(FILL_SQL, [filled + 1, to])
        filled = to
      }
      const fillMs = Date.now() - t0
      // What a partner's server would have done by then: Postgres's autovacuum analyses a table
      // that grew; PGlite has no autovacuum, so nothing analyses it unless someone runs it.
      if (backend === 'postgres') await db.query(`VACUUM ANALYZE ${S}.payments, ${S}.changes`)
      await db.query('CHECKPOINT')
      const counts = (
        await db.query(
          `SELECT count(*) FILTER (WHERE open)::integer AS open, count(*) FILTER (WHERE open AND next_check_at <= now())::integer AS due, count(*)::integer AS total, (SELECT count(*)::integer FROM ${S}.changes) AS changes FROM ${S}.payments`,
        )
      ).rows[0]
      // The claim leases what it takes (an UPDATE): each run is timed inside a transaction that is
      // rolled back after it, so that every run finds the same payments due.
      const owner = 'bench-kit'
      let claimed = 0
      const inRolledBack = (work) => async () => {
        let took = 0
        await db
          .transaction(async (tx) => {
            const t = process.hrtime.bigint()
            await work(tx)
            took = Number(process.hrtime.bigint() - t) / 1e6
            throw ROLLBACK
          })
          .catch((error) => {
            if (error !== ROLLBACK) throw error
          })
        return took
      }
      const claimTime = await time(
        samples.claim,
        inRolledBack(async (tx) => (claimed = (await claim(tx, owner, batch, 30_000)).length)),
      )
      // retireStale runs before each claim (the reconciler's default followForMs: 30 days).
      const retireTime = retire
        ? await time(
            samples.claim,
            inRolledBack((tx) => retire(tx, 30 * 86_400_000)),
          )
        : undefined
      // The plans, to tell an index scan from a scan of the table (the claim's inner SELECT; retireStale's scan).
      const explain = async (sql) => (await db.query(`EXPLAIN (COSTS OFF) ${sql}`)).rows.map((r) => String(Object.values(r)[0]).trim()).join(' / ')
      const plan = {
        claim: await explain(
          `SELECT kind, id FROM ${S}.payments WHERE open AND next_check_at <= now() AND (lease_until IS NULL OR lease_until < now()) ORDER BY next_check_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`,
        ),
        retire: await explain(`SELECT kind, id FROM ${S}.payments WHERE open AND created_at < now() - interval '30 days'`),
      }
      // One payment recorded, as the handler records a creation: recordPayment (INSERT, then ownerOf).
      const record = await time(samples.record, async (i) => {
        recorded++
        await store.recordPayment({
          kind: 'card',
          id: `cp_bench_${size}_${recorded}_${i}`,
          userId: `user_${Math.floor(((recorded * 7919) % size) / 20)}`,
          status: 'pending',
          amount: '25.50',
          currency: 'EUR',
        })
      })
      // The read before every status request (ownerOf), of card purchases of the fill picked at random.
      const owned = await time(samples.record, async () => {
        const n = 20 * Math.floor((Math.random() * size) / 20) + Math.floor(Math.random() * 8)
        if (!(await store.ownerOf('card', fillId('cp_', Math.max(n, 1))))) throw new Error(`bench:kit: payment ${n} of the fill is missing`)
      })
      await db.query('CHECKPOINT')
      const table = Number((await db.query(`SELECT pg_total_relation_size('${S}.payments') AS b`)).rows[0].b)
      const changes = Number((await db.query(`SELECT pg_total_relation_size('${S}.changes') AS b`)).rows[0].b)
      const database = Number((await db.query('SELECT pg_database_size(current_database()) AS b')).rows[0].b)
      // The whole data directory, WAL included (for Postgres: the cluster, with its template databases).
      const dir = dataDir ?? pgDir
      const du = dir ? Number(spawnSync('du', ['-sb', dir], { encoding: 'utf8' }).stdout.split(/\s/)[0]) : undefined
      out.sizes.push({ size, fillMs, counts, claimed, claim: claimTime, retire: retireTime, plan, record, owned, bytes: { table, changes, database, du } })
      log(`${size}: filled in ${fillMs} ms; claim p50 ${claimTime.p50.toFixed(2)} ms (${claimed} claimed); record p50 ${record.p50.toFixed(2)} ms`)
    }
    return out
  } finally {
    await store?.close().catch(() => {})
    await pool?.end().catch(() => {})
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => {})
      await admin.end().catch(() => {})
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}

const ROLLBACK = Symbol('rollback')
// The id the fill gives payment n (FILL_SQL: its prefix and the first 16 hex digits of md5(n)).
const fillId = (prefix, n) => `${prefix}${createHash('md5').update(String(n)).digest('hex').slice(0, 16)}`

/**
 * In the bench: runs the section in a child pinned to `cpu` (taskset), and resolves to its result.
 * Its progress goes to stderr; `onChild` is handed a function that ends the child.
 */
export function runStoreSection({ cpu, onChild, ...config }) {
  const args = [fileURLToPath(import.meta.url), JSON.stringify(config)]
  const [cmd, ...rest] = cpu === undefined ? [process.execPath, ...args] : ['taskset', '-c', String(cpu), process.execPath, ...args]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    // The bench's cleanup ends it (by its pid) if the bench stops first.
    onChild?.(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'))
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '))
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)))
      else reject(new Error(`bench:kit: the store section (${config.backend}) failed (exit ${code})`))
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureStore(JSON.parse(process.argv[2]))
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`)
  process.exit(0)
}
