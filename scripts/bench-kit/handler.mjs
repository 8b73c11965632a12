// `npm run bench:kit`, the handler section: the built kit's createPartnerHandler served over HTTP
// in a process of its own pinned to one core, in front of the sandbox service, and loaded by
// 1, 10 and 100 concurrent users from the bench's process on the other core.
//
// Three processes:
//  - the sandbox service (`node handler.mjs sandbox '<json>'`): test/sandbox/server.mjs with the
//    card routes of test/sandbox/routes/card.mjs (no chains: a card purchase and its status before
//    the card page is paid need none). `keyRate` sets the partner path's per-key rate (the
//    sandbox's KEY_RATE, 30 per second, read when the server is created);
//  - the kit (`node handler.mjs kit '<json>'`), pinned with taskset: dist/server/index.js, its
//    store (PGlite in this process, or a pg Pool), served by a minimal node:http wrapper;
//  - the load (`measurePoint` below), in the bench's own process, on the other core.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { Agent, createServer, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { quantile } from './util.mjs'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const ORIGIN = 'http://127.0.0.1:4173'

/** Starts one of this file's processes and resolves once it printed `READY <port>`. */
function startChild(role, config, cpu) {
  const args = [fileURLToPath(import.meta.url), role, JSON.stringify(config)]
  const [cmd, ...rest] = cpu === undefined ? [process.execPath, ...args] : ['taskset', '-c', String(cpu), process.execPath, ...args]
  const child = spawn(cmd, rest, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.on('error', reject)
    child.on('exit', (code) => reject(new Error(`bench:kit: the ${role} process ended before it was ready (exit ${code})`)))
    child.stdout.on('data', (chunk) => {
      out += chunk
      const [, port, key] = /READY (\d+)(?: (\S+))?\n/.exec(out) ?? []
      if (!port) return
      child.removeAllListeners('exit')
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      let exited = false
      child.on('exit', () => (exited = true))
      resolve({
        pid: child.pid,
        base: `http://127.0.0.1:${port}`,
        key,
        // Ends this child only, by its pid, and waits for it.
        stop: () =>
          new Promise((done) => {
            if (exited) return done()
            child.once('exit', done)
            child.kill('SIGTERM')
            setTimeout(() => exited || child.kill('SIGKILL'), 5_000).unref()
          }),
      })
    })
  })
}

/** The sandbox service, with the partner path's key rate `keyRate` per second (undefined: the sandbox's own). */
export async function startSandbox({ keyRate, cpu }) {
  const child = await startChild('sandbox', { keyRate }, cpu)
  return { ...child, apiBase: child.base, apiKey: child.key }
}

/** The kit in a process pinned to `cpu`, in front of `apiBase`, on a fresh store of `backend`. */
export function startKit({ backend, pgPort, apiBase, apiKey, dataDir, cpu }) {
  return startChild('kit', { backend, pgPort, apiBase, apiKey, dataDir }, cpu)
}

/** CPU seconds (user + system) the process has used so far, from /proc; 0 once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** The process and its descendants now (a Postgres server's backends), from /proc. */
export function processTree(pid) {
  const all = [pid]
  for (let i = 0; i < all.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${all[i]}/task`)) {
        const children = readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8').trim()
        if (children) all.push(...children.split(' ').map(Number))
      }
    } catch {}
  }
  return all
}

// ——— the load ———

function send(agent, base, path, user, body) {
  const payload = JSON.stringify(body)
  return new Promise((resolve) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Authorization: `Bearer ${user}`, Origin: ORIGIN },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', () => resolve({ status: 0, body: '' }))
      },
    )
    req.on('error', (error) => resolve({ status: 0, body: String(error) }))
    req.end(payload)
  })
}

const purchase = (token, wallet) => ({ kycToken: token, fiatCurrency: 'EUR', fiatAmount: '25.00', walletAddress: wallet, returnUrl: `${ORIGIN}/card-return` })

/**
 * Each of `users` users (a bearer token of their own) gets a KYC token and one card purchase
 * through the kit: what the status reads ask about, and what the creations are made with.
 */
export async function prepareUsers(kitBase, users) {
  const agent = new Agent({ keepAlive: true, maxSockets: 10 })
  const made = []
  try {
    for (let i = 0; i < users; i++) {
      const user = `bench_${randomBytes(4).toString('hex')}_${i}`
      const wallet = `0x${randomBytes(20).toString('hex')}`
      const kyc = await send(agent, kitBase, '/partner/card/kyc-token', user, { walletAddress: wallet })
      if (kyc.status !== 200) throw new Error(`bench:kit: /partner/card/kyc-token answered ${kyc.status} ${kyc.body}`)
      const token = JSON.parse(kyc.body).token
      const created = await send(agent, kitBase, '/partner/card/purchase', user, purchase(token, wallet))
      if (created.status !== 200) throw new Error(`bench:kit: /partner/card/purchase answered ${created.status} ${created.body}`)
      made.push({ user, wallet, token, id: JSON.parse(created.body).id })
    }
  } finally {
    agent.destroy()
  }
  return made
}

export const OPERATIONS = {
  status: { label: 'status read (POST /card/status of an owned purchase)', path: '/partner/card/status', body: (u) => ({ id: u.id }) },
  create: { label: 'creation (POST /card/purchase)', path: '/partner/card/purchase', body: (u) => purchase(u.token, u.wallet) },
}

/**
 * `concurrency` users, each sending its next request as soon as its last is answered, for
 * `warmSeconds` (not counted) then `seconds`. A request counts if it started in the window.
 * `others()`: the pids of the processes beside the kit (the sandbox, Postgres), whose CPU time is
 * added to this process's as `restCpu`, to tell whether the other core kept up.
 */
export async function measurePoint({ kit, users, operation, concurrency, seconds, warmSeconds, others = () => [] }) {
  const op = OPERATIONS[operation]
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies = []
  const statuses = {}
  let measuring = false
  let stopping = false
  let cpuAtStart = 0
  const loop = async (u) => {
    while (!stopping) {
      const counted = measuring
      const t = process.hrtime.bigint()
      const { status } = await send(agent, kit.base, op.path, u.user, op.body(u))
      if (!counted || stopping) continue
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6)
      statuses[status] = (statuses[status] ?? 0) + 1
    }
  }
  const running = Array.from({ length: concurrency }, (_, i) => loop(users[i % users.length]))
  await new Promise((r) => setTimeout(r, warmSeconds * 1000))
  cpuAtStart = cpuSeconds(kit.pid)
  const restPids = others()
  const restAt = restPids.map(cpuSeconds)
  const selfAt = process.cpuUsage()
  const t0 = process.hrtime.bigint()
  measuring = true
  await new Promise((r) => setTimeout(r, seconds * 1000))
  measuring = false
  const wall = Number(process.hrtime.bigint() - t0) / 1e9
  const cpu = (cpuSeconds(kit.pid) - cpuAtStart) / wall
  const self = process.cpuUsage(selfAt)
  const rest = ((self.user + self.system) / 1e6 + restPids.reduce((sum, pid, i) => sum + Math.max(0, cpuSeconds(pid) - restAt[i]), 0)) / wall
  stopping = true
  await Promise.all(running)
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const ok = Object.entries(statuses)
    .filter(([s]) => s >= 200 && s < 300)
    .reduce((n, [, c]) => n + c, 0)
  return {
    operation,
    concurrency,
    requests: latencies.length,
    ok,
    statuses,
    rps: latencies.length / wall,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    kitCpu: cpu,
    restCpu: rest,
  }
}

// ——— the processes ———

/**
 * The node:http wrapper the bench serves the handler with: the request's method, URL, headers and
 * body as a fetch Request, the Response written back. Minimal on purpose (no trust of proxies, no
 * size cap but the handler's own): the kit's own adapter replaces it (the switch in serveKit).
 */
function nodeListener(handler, base) {
  return async (req, res) => {
    try {
      const headers = new Headers()
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
      const request = new Request(new URL(req.url ?? '/', base), {
        method: req.method,
        headers,
        body: hasBody ? Readable.toWeb(req) : undefined,
        duplex: 'half',
      })
      const response = await handler(request)
      res.writeHead(response.status, Object.fromEntries(response.headers))
      res.end(Buffer.from(await response.arrayBuffer()))
    } catch (error) {
      if (!res.headersSent) res.writeHead(500)
      res.end()
      console.error('[bench:kit kit]', error)
    }
  }
}

async function serveKit({ backend, pgPort, apiBase, apiKey, dataDir: parent }) {
  const kit = await import(pathToFileURL(join(ROOT, 'dist/server/index.js')).href)
  let dataDir
  let pool
  let admin
  const dbName = `bench_kit_${process.pid}`
  let store
  if (backend === 'pglite') {
    dataDir = mkdtempSync(join(parent ?? tmpdir(), 'scw-bench-kit-'))
    store = await kit.openPaymentStore({ dataDir })
  } else {
    const { default: pg } = await import('pg')
    admin = new pg.Client({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: 'postgres' })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${dbName}`)
    pool = new pg.Pool({ host: '127.0.0.1', port: pgPort, user: 'postgres', database: dbName })
    store = await kit.openPaymentStore({ pool })
  }
  const handler = kit.createPartnerHandler({
    apiBase,
    apiKey,
    basePath: '/partner',
    allowedOrigins: [ORIGIN],
    store,
    // The bearer token is the user: the partner's own session lookup is not what is measured.
    authenticate: (token) => token,
    // The bench measures what the kit serves per load point: one user at full speed would otherwise
    // be held by the default per-user rate (120 a minute) after its first 60 requests.
    userRate: false,
    log: (line) => console.error('[bench:kit kit]', line),
  })
  const server = createServer()
  const base = 'http://127.0.0.1'
  // ▼ The one-line switch: once src/server exports its Node adapter, serve through it instead:
  //   server.on('request', kit.createNodeListener(handler))
  server.on('request', nodeListener(handler, base))
  server.keepAliveTimeout = 60_000
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const stop = async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await store.close().catch(() => {})
    await pool?.end().catch(() => {})
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => {})
      await admin.end().catch(() => {})
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  }
  process.once('SIGTERM', stop)
  process.stdout.write(`READY ${server.address().port}\n`)
}

async function serveSandbox({ keyRate }) {
  // The partner path's key rate is read from KEY_RATE when the server is made: raised here, not edited.
  const { KEY_RATE } = await import('../../test/sandbox/rateLimit.mjs')
  if (keyRate !== undefined) KEY_RATE.limit = keyRate
  const { createSandboxServer } = await import('../../test/sandbox/server.mjs')
  const { KEY, cardRoutes } = await import('../../test/sandbox/routes/card.mjs')
  const routes = {}
  const modules = []
  const control = {
    set: (body) => modules.forEach((m) => m.control?.set?.(body)),
    reset: () => modules.forEach((m) => m.control?.reset?.()),
  }
  const server = createSandboxServer({ allowedOrigins: [ORIGIN], routes, control })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const publicBase = `http://127.0.0.1:${server.address().port}`
  const card = cardRoutes({ chains: { dst: undefined }, publicBase, allowedOrigins: [ORIGIN] })
  modules.push(card)
  Object.assign(routes, card.routes)
  control.plainHeaders = card.plainHeaders
  process.once('SIGTERM', async () => {
    server.closeAllConnections()
    server.close()
    await card.close?.()
    process.exit(0)
  })
  process.stdout.write(`READY ${server.address().port} ${KEY}\n`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [role, json] = process.argv.slice(2)
  const config = JSON.parse(json)
  if (role === 'kit') await serveKit(config)
  else if (role === 'sandbox') await serveSandbox(config)
  else throw new Error(`bench:kit: no role ${role}`)
}
