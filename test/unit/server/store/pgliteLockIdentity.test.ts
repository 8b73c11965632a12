// @vitest-environment node
// One process per PGlite dataDir (dataDirLock.ts), when a path or a pid does not name one thing:
// the same directory by another path (a bind mount among them), and processes in PID namespaces of
// their own (containers: each has a pid 1) sharing the host name (a host-network container, or a
// fixed `hostname:` on two replicas). Each refusal case fails if two opens of one directory both
// succeed while the first is alive. The namespace cases run the kit (bundled from the public API,
// pgliteLockHolder.ts) under `unshare`, as a container would; they need root and util-linux, and
// skip elsewhere.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'rolldown'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPartnerHandler, openPaymentStore, type PaymentStore } from '../../../../src/server/index'

const here = fileURLToPath(new URL('.', import.meta.url))
const dirs: string[] = []
const children: ChildProcess[] = []
let bundle = ''
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-pglite-lock-id-'))
  dirs.push(dir)
  return dir
}
// Root (or a user namespace) and util-linux: the namespace cases need them.
const namespaces = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0
const mounts =
  spawnSync('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', 'd=$(mktemp -d) && mount --bind "$d" "$d" && umount "$d" && rmdir "$d"']).status ===
  0

beforeAll(async () => {
  // Inside the repository, so that the bundle finds PGlite in node_modules.
  bundle = mkdtempSync(join(here, '.bundle-'))
  await build({
    input: join(here, 'pgliteLockHolder.ts'),
    platform: 'node',
    external: [/^node:/, 'pg', '@electric-sql/pglite'],
    output: { dir: bundle, format: 'esm', codeSplitting: false, entryFileNames: 'holder.mjs' },
    logLevel: 'silent',
  })
}, 120_000)

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  if (bundle) rmSync(bundle, { recursive: true, force: true })
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** Runs the holder under `unshare flags…`; resolves with its first line ("ready …", "refused …", "opened-twice"). */
function run(flags: string[], env: Record<string, string>): { child: ChildProcess; line: Promise<string> } {
  // Without flags, node itself (this process reaps it): no unshare in between.
  const [command, args] = flags.length
    ? ['unshare', [...flags, '--kill-child', process.execPath, join(bundle, 'holder.mjs')]]
    : [process.execPath, [join(bundle, 'holder.mjs')]]
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (chunk) => (err += chunk))
  const line = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
    })
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code} before a line: ${err.slice(0, 500)}`)))
  })
  return { child, line }
}

describe('one live store per dataDir, in one process', { timeout: 120_000 }, () => {
  it('every other spelling of an open directory is refused (relative, dot-segments, file://, a symlinked parent)', async () => {
    const dataDir = join(fresh(), 'data')
    const store = await openPaymentStore({ dataDir })
    try {
      const link = join(fresh(), 'parent')
      symlinkSync(join(dataDir, '..'), link)
      mkdirSync(join(dataDir, 'sub'), { recursive: true })
      for (const spelling of [relative(process.cwd(), dataDir), `${dataDir}/.`, `${dataDir}/sub/..`, `${dataDir}//`, `file://${dataDir}`, join(link, 'data')]) {
        await expect(openPaymentStore({ dataDir: spelling }), spelling).rejects.toThrow(/already open in this process/)
      }
    } finally {
      await store.close()
    }
  })

  it('two handlers given their own openPaymentStore on one dataDir: the second never serves from a second copy', async () => {
    const dataDir = fresh()
    const stores: Array<Promise<PaymentStore>> = [openPaymentStore({ dataDir }), openPaymentStore({ dataDir })]
    const settled = await Promise.allSettled(stores)
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected'])
    const lines: string[] = []
    const handlers = stores.map((store) =>
      createPartnerHandler({
        apiBase: 'https://api.example',
        apiKey: 'sk_test_key',
        allowedOrigins: [],
        authenticate: (token) => token,
        store,
        fetch: (async () => Response.json({ id: `pay_${Math.random()}`, status: 'awaiting_funds' })) as unknown as typeof fetch,
        log: (line) => lines.push(line),
      }),
    )
    const statuses = []
    for (const handle of handlers) {
      const res = await handle(
        new Request('http://localhost/bank/deposit', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer u' },
          body: JSON.stringify({ accountId: 'a', walletId: 'w', fiatCurrency: 'EUR', fiatAmount: '1' }),
        }),
      )
      statuses.push(res.status)
    }
    expect(statuses.sort()).toEqual([200, 500])
    for (const s of settled) if (s.status === 'fulfilled') await s.value.close()
  })

  it.skipIf(!mounts)('the same directory through a bind mount (another path realpath does not unify), in one thread: refused', async () => {
    const dataDir = fresh()
    const alias = fresh()
    // The holder's own mount namespace: the bind mount is private to it and gone when it exits.
    const { line } = run(['--mount', '--propagation', 'private'], { MODE: 'alias', DATA_DIR: dataDir, ALIAS: alias })
    const said = await line
    // The same device and inode: known as held here (before the fix, keyed by path, the lock
    // naming this pid and thread was read as a killed earlier life's and taken over).
    expect(said).toMatch(/^refused .*already open in this process/)
  })
})

describe('one live store per dataDir, across processes', { timeout: 120_000 }, () => {
  it('a crashed holder (killed) is taken over, its writes kept: the intended recovery', async () => {
    const dataDir = fresh()
    // Not a namespace of its own: a plain second process on this host.
    const { child, line } = run([], { DATA_DIR: dataDir })
    expect(await line).toMatch(/^ready /)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
    const store = await openPaymentStore({ dataDir })
    try {
      expect((await store.listPayments('holder')).length).toBe(1)
    } finally {
      await store.close()
    }
  })

  it('a live holder in another process of this namespace: refused', async () => {
    const dataDir = fresh()
    const { line } = run([], { DATA_DIR: dataDir })
    expect(await line).toMatch(/^ready /)
    await expect(openPaymentStore({ dataDir })).rejects.toThrow(/is open in process \d+ on host/)
  })

  it.skipIf(!namespaces)('this process holds the directory; a process in another PID namespace, same host name, opens it: refused', async () => {
    const dataDir = fresh()
    const store = await openPaymentStore({ dataDir })
    try {
      const { line } = run(['--pid', '--fork', '--mount-proc'], { DATA_DIR: dataDir })
      // In the other namespace this pid is not alive (or is another process): the holder's socket,
      // which accepts, tells it is (before the fix, the lock was taken over: two PGlite instances).
      expect(await line).toMatch(/^refused .*is open in process/)
    } finally {
      await store.close()
    }
  })

  it.skipIf(!namespaces)('two containers on one volume, each its own PID namespace (both pid 1), same host name: the second is refused', async () => {
    const dataDir = fresh()
    const first = run(['--pid', '--fork', '--mount-proc'], { DATA_DIR: dataDir })
    expect(await first.line).toBe('ready 1')
    const second = run(['--pid', '--fork', '--mount-proc'], { DATA_DIR: dataDir })
    // The lock names pid 1, this host, thread 0: the second's own pid and thread, in another
    // namespace (before the fix, read as its own earlier life's and taken over).
    expect(await second.line).toMatch(/^refused .*is open in process 1 on host .*delete .*stablecoin-widget\.lock/)
  })

  it.skipIf(!namespaces)('a container killed and started again (pid 1 in a new PID namespace) takes its directory back, its writes kept', async () => {
    const dataDir = fresh()
    const first = run(['--pid', '--fork', '--mount-proc'], { DATA_DIR: dataDir })
    expect(await first.line).toBe('ready 1')
    // SIGKILL to unshare; --kill-child has the kernel kill the holder, whose stdout then closes.
    const gone = new Promise((resolve) => first.child.stdout!.once('close', resolve))
    first.child.kill('SIGKILL')
    await gone
    const again = run(['--pid', '--fork', '--mount-proc'], { DATA_DIR: dataDir })
    expect(await again.line).toBe('ready 1')
    again.child.kill('SIGKILL')
    // Back in this process's namespace, once the second is gone too: both payments are there.
    await new Promise((resolve) => again.child.stdout!.once('close', resolve))
    const store = await openPaymentStore({ dataDir })
    try {
      expect((await store.listPayments('holder')).length).toBe(2)
    } finally {
      await store.close()
    }
  })
})
