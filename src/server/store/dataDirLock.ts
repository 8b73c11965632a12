// One process per PGlite dataDir. PGlite locks nothing (its postmaster.pid names a made-up pid):
// two processes on one directory, as in a rolling restart, would each miss the other's writes, so
// changes would be delivered twice and one id could name different payments in each. The lock is a
// file in the directory, created exclusively, naming the process (pid, host, thread) that holds it.
// A lock whose process is gone from this host (killed) is taken over; a lock of another host is
// not (its process cannot be asked). Node's file system only: loaded only for a dataDir on disk.
import type { promises as Fs } from 'node:fs'

export const LOCK_FILE = 'stablecoin-widget.lock'

type Holder = { pid: number; host: string; thread: number }

/**
 * The directories this thread holds, by lock path: a lock naming this thread and not here is a dead
 * process's. On globalThis, so that two copies of the kit in one thread (two bundles) share it.
 */
const held: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for('stablecoin-widget/server: locked dataDirs')] ??= new Set())

/** Takes the directory for this process; answers the release, which deletes the lock if it is still this one. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const [fs, { hostname }, { join, resolve }, { threadId }, { randomUUID }] = await Promise.all([
    import('node:fs/promises'),
    import('node:os'),
    import('node:path'),
    import('node:worker_threads'),
    import('node:crypto'),
  ])
  const refused = (why: string) => new Error(`stablecoin-widget/server: the PGlite dataDir ${dataDir} ${why}`)
  await fs.mkdir(resolve(dataDir), { recursive: true })
  // The directory itself, whatever path names it (relative, through a symlink).
  const path = join(await fs.realpath(resolve(dataDir)), LOCK_FILE)
  // Claimed in this thread before the file is tried, so that two opens at once here are one refused.
  if (held.has(path)) throw refused('is already open in this process; open it once and share that store')
  held.add(path)
  try {
    const me: Holder = { pid: process.pid, host: hostname(), thread: threadId }
    const mine = JSON.stringify({ ...me, token: randomUUID() })
    // Bounded: each round either takes the lock, refuses, or found a stale one moved aside.
    for (let round = 0; round < 5; round++) {
      if (await createExclusive(fs, path, mine)) {
        return async () => {
          held.delete(path)
          if ((await fs.readFile(path, 'utf8').catch(() => undefined)) === mine) await fs.unlink(path).catch(() => {})
        }
      }
      const text = await fs.readFile(path, 'utf8').catch(missing)
      if (text === undefined) continue
      const holder = parseHolder(text)
      if (!holder) throw refused(`holds a lock file that cannot be read (${path}); if no process uses this directory, delete that file`)
      const here = holder.host === me.host
      if (here && holder.pid === me.pid && holder.thread !== me.thread) {
        throw refused(`is already open in this process (thread ${holder.thread}); open it once and share that store`)
      }
      // This pid and thread, not held here: a killed process's lock whose pid is ours again (a container's pid 1).
      if (!here || (holder.pid !== me.pid && isAlive(holder.pid))) {
        throw refused(`is open in process ${holder.pid} on host ${holder.host}; stop it first, or use Postgres ({ pool }) to run several instances`)
      }
      // Stale: moved aside, then deleted only if it is the one read (another opener may have taken
      // over between the read and the move; its lock is then put back).
      const aside = `${path}.stale-${randomUUID()}`
      if (!(await fs.rename(path, aside).then(() => true, missing))) continue
      if ((await fs.readFile(aside, 'utf8').catch(missing)) !== text) await fs.link(aside, path).catch(() => {})
      await fs.unlink(aside).catch(() => {})
    }
    throw refused(`could not be locked (${path} keeps changing); is another process opening it?`)
  } catch (error) {
    held.delete(path)
    throw error
  }
}

async function createExclusive(fs: typeof Fs, path: string, content: string): Promise<boolean> {
  try {
    await fs.writeFile(path, content, { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

function missing(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined
  throw error
}

function parseHolder(text: string): Holder | undefined {
  try {
    const { pid, host, thread } = JSON.parse(text) as Partial<Holder>
    if (Number.isSafeInteger(pid) && (pid as number) > 0 && typeof host === 'string' && host && Number.isSafeInteger(thread)) return { pid: pid as number, host, thread: thread as number }
  } catch {}
  return undefined
}

/** Whether a process of this pid runs on this host (EPERM: it runs, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
