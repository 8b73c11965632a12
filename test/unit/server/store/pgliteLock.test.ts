// @vitest-environment node
// One process per PGlite dataDir (issue 37, finding 3): PGlite itself locks nothing (its
// postmaster.pid holds a made-up pid), so two processes on one directory would each miss the
// other's writes. The second open is refused in words that say what to do; a lock left by a killed
// process on this host is taken over; the lock goes with close.
import { type ChildProcess, fork } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { threadId } from 'node:worker_threads'
import { build } from 'rolldown'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type PaymentStore, openPaymentStore } from '../../../../src/server/index'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
let bundleDir: string
const dirs: string[] = []
const children: ChildProcess[] = []
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-pglite-lock-'))
  dirs.push(dir)
  return dir
}

beforeAll(async () => {
  // The child runs the kit's TypeScript source, bundled once, inside the repository so that it
  // finds PGlite in node_modules (as multiInstance.test.ts does).
  bundleDir = mkdtempSync(join(root, 'dist-pglock-'))
  await build({
    input: join(root, 'test/unit/server/store/pgliteHolder.ts'),
    platform: 'node',
    external: [/^node:/, 'pg', '@electric-sql/pglite'],
    output: { dir: bundleDir, format: 'esm', codeSplitting: false, entryFileNames: 'holder.mjs' },
    logLevel: 'silent',
  })
}, 120_000)

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true })
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function holdInChild(dataDir: string): Promise<ChildProcess> {
  const child = fork(join(bundleDir, 'holder.mjs'), { env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' })
  children.push(child)
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)))
    child.on('message', (message: { type?: string }) => message.type === 'ready' && resolve(child))
  })
}

describe('one process per PGlite dataDir', { timeout: 120_000 }, () => {
  it("a second process's open is refused, saying what to do; once the holder is killed, the open takes the directory over with the holder's writes", async () => {
    const dataDir = freshDir()
    const child = await holdInChild(dataDir)
    await expect(openPaymentStore({ dataDir })).rejects.toThrow(
      `stablecoin-widget/server: the PGlite dataDir ${dataDir} is open in process ${child.pid} on host ${hostname()}; stop it first, or use Postgres ({ pool }) to run several instances`,
    )
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await exited
    const store = await openPaymentStore({ dataDir })
    try {
      // The refusal wrote nothing: what the holder recorded is there, and only that.
      expect(await store.listPayments('child-user')).toMatchObject([{ kind: 'card', id: 'cp_child', userId: 'child-user' }])
      expect(await store.db.query('SELECT count(*)::integer AS n FROM stablecoin_widget.payments')).toMatchObject({ rows: [{ n: 1 }] })
    } finally {
      await store.close()
    }
  })

  it('a second open in the same process is refused too, by any path and at the same moment, and close releases the directory', async () => {
    const dataDir = freshDir()
    const opened = await Promise.allSettled([openPaymentStore({ dataDir }), openPaymentStore({ dataDir })])
    expect(opened.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
    const store = (opened.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<PaymentStore>).value
    expect((opened.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason.message).toBe(
      `stablecoin-widget/server: the PGlite dataDir ${dataDir} is already open in this process; open it once and share that store`,
    )
    await store.recordPayment({ kind: 'card', id: 'cp_first', userId: 'u' })
    await expect(openPaymentStore({ dataDir })).rejects.toThrow(
      `stablecoin-widget/server: the PGlite dataDir ${dataDir} is already open in this process; open it once and share that store`,
    )
    const link = join(freshDir(), 'link')
    symlinkSync(dataDir, link)
    await expect(openPaymentStore({ dataDir: link })).rejects.toThrow('is already open in this process')
    await expect(openPaymentStore({ dataDir: `file://${dataDir}/` })).rejects.toThrow('is already open in this process')
    await store.close()
    const again = await openPaymentStore({ dataDir })
    try {
      expect((await again.listPayments('u')).map((p) => p.id)).toEqual(['cp_first'])
    } finally {
      await again.close()
    }
  })

  it('a lock of another host is never taken over (its process cannot be asked), and one that cannot be read is not either', async () => {
    const dataDir = freshDir()
    const store = await openPaymentStore({ dataDir })
    await store.close()
    const lock = join(dataDir, 'stablecoin-widget.lock')
    expect(existsSync(lock)).toBe(false)
    writeFileSync(lock, JSON.stringify({ pid: 4242, host: 'other-host', thread: 0 }))
    await expect(openPaymentStore({ dataDir })).rejects.toThrow(
      `the PGlite dataDir ${dataDir} is open in process 4242 on host other-host; stop it first, or use Postgres ({ pool }) to run several instances`,
    )
    writeFileSync(lock, '')
    await expect(openPaymentStore({ dataDir })).rejects.toThrow(
      `the PGlite dataDir ${dataDir} holds a lock file that cannot be read (${lock}); if no process uses this directory, delete that file`,
    )
    // Both refusals left the lock as they found it.
    expect(readFileSync(lock, 'utf8')).toBe('')
  })

  it("a lock naming this very process and thread, not held by it, is a killed process's whose pid came back (a container's pid 1): taken over", async () => {
    const dataDir = freshDir()
    mkdirSync(dataDir, { recursive: true })
    // Where /proc tells (Linux): the same boot and PID namespace, and another start time (an earlier life).
    const proc = existsSync('/proc/self/ns/pid')
      ? { boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), pidNs: readlinkSync('/proc/self/ns/pid'), start: '1' }
      : {}
    writeFileSync(
      join(dataDir, 'stablecoin-widget.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), thread: threadId, token: 'earlier-life', ...proc }),
    )
    const store = await openPaymentStore({ dataDir })
    expect(JSON.parse(readFileSync(join(dataDir, 'stablecoin-widget.lock'), 'utf8')).token).not.toBe('earlier-life')
    await store.close()
    expect(existsSync(join(dataDir, 'stablecoin-widget.lock'))).toBe(false)
  })
})
