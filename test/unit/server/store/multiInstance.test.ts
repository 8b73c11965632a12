// @vitest-environment node
// Against a real Postgres server: several processes, each with its own pg Pool, share one database.
import { type ChildProcess, fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { build } from 'rolldown'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPaymentStore, type PaymentStore } from '../../../../src/server/index'
import { busiestWindow, everyKind, exactlyOnceFigures, until } from '../reconcile/fakeStatuses'
import { startPostgres, type ThrowawayPostgres } from './throwawayPostgres'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
let postgres: ThrowawayPostgres
let pool: pg.Pool
let bundleDir: string
const children: ChildProcess[] = []

beforeAll(async () => {
  postgres = await startPostgres()
  pool = new pg.Pool({ host: '127.0.0.1', port: postgres.port, user: 'postgres', database: 'postgres', max: 10 })
  // The child runs the kit's TypeScript source, bundled once; inside the repository (ignored by
  // git, dist-*) so that it finds pg in node_modules.
  bundleDir = mkdtempSync(join(root, 'dist-pgtest-'))
  await build({
    input: join(root, 'test/unit/server/store/reconcilerProcess.ts'),
    platform: 'node',
    external: [/^node:/, 'pg', '@electric-sql/pglite'],
    output: { dir: bundleDir, format: 'esm', codeSplitting: false, entryFileNames: 'child.mjs' },
    logLevel: 'silent',
  })
}, 120_000)

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await pool?.end()
  postgres?.stop()
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true })
})

type Message = { type: string; instance: string; changeId?: string; kind?: string; id?: string; status?: string; previous?: string; line?: string }

function spawnReconciler(instance: string, env: Record<string, string>, onMessage: (message: Message) => void): Promise<ChildProcess> {
  const child = fork(join(bundleDir, 'child.mjs'), { env: { ...process.env, INSTANCE: instance, PG_PORT: String(postgres.port), ...env }, stdio: 'pipe' })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${instance} exited with ${code}`)))
    child.on('message', (message: Message) => (message.type === 'ready' ? resolve(child) : onMessage(message)))
  })
}

describe('on a Postgres server shared by several instances', { timeout: 90_000 }, () => {
  let store: PaymentStore
  beforeAll(async () => {
    store = await openPaymentStore({ pool })
  })

  it('binds an account to exactly one of the users who race for it', async () => {
    for (let round = 0; round < 10; round++) {
      const users = ['u1', 'u2', 'u3', 'u4']
      const results = await Promise.all(users.map((user) => store.bindAccount(user, `acc_${round}`, `wal_${round}`)))
      expect(results.filter(Boolean)).toHaveLength(1)
      const winner = users[results.indexOf(true)]
      expect(await store.bindAccount(winner, `acc_${round}`, `wal_${round}`)).toBe(true)
    }
  })

  it('delivers every change of every kind exactly once across two processes, one of them killed mid-way', async () => {
    const RPS = 10
    // Two payments of each kind; the service has moved each one status on from its first.
    const world = everyKind()
    const requests: Array<{ at: number; instance: string }> = []
    const server: Server = createServer((req, res) => {
      const [, kind, id] = req.url!.split('/').map(decodeURIComponent)
      // When the instance sent it: arrival times would add the loopback's jitter to the spacing.
      requests.push({ at: Number(req.headers['x-started-at']), instance: String(req.headers['x-instance']) })
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(world.answer(kind, id)))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const STATUS_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    const delivered: Array<Message & { at: number }> = []
    const logs: string[] = []
    let hanging: (Message & { at: number }) | undefined
    const onMessage = (message: Message) => {
      if (message.type === 'log') return void logs.push(`${message.instance}: ${message.line}`)
      if (message.type === 'hanging') {
        hanging = { ...message, at: Date.now() }
        a.kill('SIGKILL')
        return
      }
      delivered.push({ ...message, at: Date.now() })
      // The service moves a payment on only once its change is delivered, so no status goes unseen.
      world.delivered(message.kind!, message.id!, message.status!)
    }
    // Both start on an empty database: their migrations race, and exactly one applies them.
    await pool.query('DROP SCHEMA stablecoin_widget CASCADE')
    const [a, b] = await Promise.all([
      spawnReconciler('A', { STATUS_URL, RPS: String(RPS), HANG_AFTER: '4' }, onMessage),
      spawnReconciler('B', { STATUS_URL, RPS: String(RPS) }, onMessage),
    ])
    await world.record(store, 'alice')

    await until(() => delivered.length >= world.total, 60_000, 'every change delivered')
    await new Promise((resolve) => setTimeout(resolve, 2000)) // past every lease: a second delivery would show now
    await new Promise<void>((resolve) => {
      b.once('exit', () => resolve())
      b.send('stop')
    })
    server.close()

    expect(hanging, 'A hung in onUpdate and was killed').toBeDefined()
    expect(a.signalCode).toBe('SIGKILL')
    expect(delivered).toHaveLength(world.total)
    expect(new Set(delivered.map((d) => d.changeId)).size).toBe(delivered.length)
    for (const { kind, id } of world.payments) {
      expect(
        delivered.filter((d) => d.kind === kind && d.id === id).map((d) => `${d.previous}→${d.status}`),
        `${kind} ${id}`,
      ).toEqual(world.expected(kind))
    }
    const figures = await exactlyOnceFigures(
      'Postgres 15 server, two reconciler processes (one killed mid-delivery)',
      store.db,
      world.payments.map((p) => p.id),
      delivered.map((d) => d.changeId!),
    )
    expect(figures).toEqual({ seen: world.total, delivered: world.total, duplicates: 0, undelivered: 0 })
    expect(delivered.filter((d) => d.instance === 'A')).toHaveLength(4)
    // The change A held is B's once A's lease has run out, and only then.
    const takenOver = delivered.find((d) => d.changeId === hanging!.changeId)
    expect(takenOver?.instance).toBe('B')
    expect(takenOver!.at - hanging!.at).toBeGreaterThanOrEqual(1000)
    for (const instance of ['A', 'B']) {
      expect(
        busiestWindow(
          requests.filter((r) => r.instance === instance).map((r) => r.at),
          1000,
        ),
      ).toBeLessThanOrEqual(RPS)
    }
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM stablecoin_widget.changes WHERE delivered_at IS NULL')
    expect(rows[0].n).toBe(0)
    expect(logs).toEqual([])
  })
})
