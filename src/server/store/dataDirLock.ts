// One process per PGlite dataDir. PGlite locks nothing (its postmaster.pid names a made-up pid):
// two processes on one directory, as in a rolling restart, would each miss the other's writes, so
// changes would be delivered twice and one id could name different payments in each. The lock is a
// file in the directory, created exclusively, naming the process that holds it: pid, host, thread,
// and where /proc tells them (Linux) the boot id, the PID namespace and the process's start time,
// and a Unix socket beside it on which the holder listens.
//
// A pid alone names no process: a container has its own PID namespace (its pid 1 is every other
// container's pid 1), and host-network containers or replicas share one host name. So a lock is
// taken over only when its holder is known dead on this very kernel (same boot id):
// - its socket refuses a connection (the kernel closed it with the process), whatever the PID
//   namespace: a killed container restarted on its volume takes its directory back;
// - or, in the same PID namespace, its pid is not alive or is another process (another start time).
// Anything else (another boot or machine, another namespace without a socket to ask, a lock that
// cannot be read) is refused, naming the lock file. Without /proc (macOS) there is no boot id,
// namespace or start time: there the host name stands for the machine and a pid not alive (or this
// pid and thread, not held here: an earlier life) is a dead holder, as before.
// Node's file system only: loaded only for a dataDir on disk.
import type { promises as Fs } from 'node:fs'

export const LOCK_FILE = 'stablecoin-widget.lock'

type Holder = { pid: number; host: string; thread: number; token?: string; boot?: string; pidNs?: string; start?: string; socket?: string }

/**
 * What this thread holds: its directories by device and inode (one directory, whatever path names
 * it: relative, a symlink, a bind mount) and the tokens of its lock files. On globalThis, so that
 * two copies of the kit in one thread (two bundles) share it.
 */
const held: { dirs: Set<string>; tokens: Set<string> } = ((globalThis as Record<symbol, { dirs: Set<string>; tokens: Set<string> } | undefined>)[
  Symbol.for('stablecoin-widget/server: locked dataDirs, by device and inode')
] ??= { dirs: new Set(), tokens: new Set() })

/** Longest socket path bound (sun_path is 108 bytes on Linux, 104 on macOS; longer ones Node truncates silently). */
const SOCKET_PATH_MAX = 100

/** Takes the directory for this process; answers the release, which deletes the lock if it is still this one. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const [fs, { hostname }, { join, resolve }, { threadId }, { randomUUID }, net] = await Promise.all([
    import('node:fs/promises'),
    import('node:os'),
    import('node:path'),
    import('node:worker_threads'),
    import('node:crypto'),
    import('node:net'),
  ])
  const refused = (why: string) => new Error(`stablecoin-widget/server: the PGlite dataDir ${dataDir} ${why}`)
  await fs.mkdir(resolve(dataDir), { recursive: true })
  const dir = await fs.realpath(resolve(dataDir))
  const { dev, ino } = await fs.stat(dir)
  const key = `${dev}:${ino}`
  const path = join(dir, LOCK_FILE)
  // Claimed in this thread before the file is tried, so that two opens at once here are one refused.
  if (held.dirs.has(key)) throw refused('is already open in this process; open it once and share that store')
  held.dirs.add(key)
  let server: import('node:net').Server | undefined
  let socketPath: string | undefined
  const closeSocket = async () => {
    if (!server) return
    await new Promise((done) => server!.close(done))
    if (socketPath) await fs.unlink(socketPath).catch(() => {})
  }
  try {
    const token = randomUUID()
    const proc = await procIdentity(fs)
    // Listening before the lock names it: a lock whose socket refuses is a dead holder's, never one being taken.
    const socket = `stablecoin-widget.${token.slice(0, 8)}.sock`
    if (proc && Buffer.byteLength(join(dir, socket)) <= SOCKET_PATH_MAX) {
      socketPath = join(dir, socket)
      server = await listen(net, socketPath)
    }
    const me: Holder = { pid: process.pid, host: hostname(), thread: threadId, token, ...proc, ...(server ? { socket } : {}) }
    const mine = JSON.stringify(me)
    const stop = (whose: Holder, why: string) =>
      refused(
        `is open in process ${whose.pid} on host ${whose.host}; stop it first, or use Postgres ({ pool }) to run several instances${why}. If that process is surely gone, delete ${path}`,
      )
    // Bounded: each round either takes the lock, refuses, or found a stale one moved aside.
    for (let round = 0; round < 5; round++) {
      if (await createExclusive(fs, path, mine)) {
        held.tokens.add(token)
        return async () => {
          held.dirs.delete(key)
          held.tokens.delete(token)
          if ((await fs.readFile(path, 'utf8').catch(() => undefined)) === mine) await fs.unlink(path).catch(() => {})
          await closeSocket()
        }
      }
      const text = await fs.readFile(path, 'utf8').catch(missing)
      if (text === undefined) continue
      const holder = parseHolder(text)
      if (!holder) throw refused(`holds a lock file that cannot be read (${path}); if no process uses this directory, delete that file`)
      if (holder.token !== undefined && held.tokens.has(holder.token)) throw refused('is already open in this process; open it once and share that store')
      const verdict = await judge(fs, net, dir, me, holder)
      if (verdict === 'this process') throw refused(`is already open in this process (thread ${holder.thread}); open it once and share that store`)
      if (verdict === 'unknown') {
        throw stop(
          holder,
          proc && holder.boot === proc.boot
            ? ' (it runs in another PID namespace, another container, where this one cannot tell whether it still runs)'
            : proc
              ? ' (it was written on another machine or boot, or without /proc, where this one cannot tell whether it still runs)'
              : '',
        )
      }
      if (verdict === 'alive') throw stop(holder, '')
      await removeStale(fs, path, `${path}.stale-${randomUUID()}`, text, holder.socket && join(dir, holder.socket))
    }
    throw refused(`could not be locked (${path} keeps changing); is another process opening it?`)
  } catch (error) {
    held.dirs.delete(key)
    await closeSocket()
    throw error
  }
}

/**
 * A dead holder's lock, read as `text`: moved aside, then deleted only if it is the one read (another
 * opener may have taken over between the read and the move; its lock is then put back), with its socket.
 */
async function removeStale(fs: typeof Fs, path: string, aside: string, text: string, socketPath: string | undefined): Promise<void> {
  if (!(await fs.rename(path, aside).then(() => true, missing))) return
  if ((await fs.readFile(aside, 'utf8').catch(missing)) !== text) await fs.link(aside, path).catch(() => {})
  else if (socketPath) await fs.unlink(socketPath).catch(() => {})
  await fs.unlink(aside).catch(() => {})
}

type Proc = { boot: string; pidNs: string; start: string }

/** This process's boot id, PID namespace and start time, from /proc; undefined without /proc (macOS). */
async function procIdentity(fs: typeof Fs): Promise<Proc | undefined> {
  try {
    const [boot, pidNs, stat] = await Promise.all([
      fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8'),
      fs.readlink('/proc/self/ns/pid'),
      fs.readFile('/proc/self/stat', 'utf8'),
    ])
    const start = startTime(stat)
    return start ? { boot: boot.trim(), pidNs, start } : undefined
  } catch {
    return undefined
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), read after the command's closing parenthesis. */
function startTime(stat: string): string | undefined {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
}

/** Whether the holder of a lock not held by this thread is this process (another thread), alive, dead, or cannot be told. */
async function judge(
  fs: typeof Fs,
  net: typeof import('node:net'),
  dir: string,
  me: Holder,
  holder: Holder,
): Promise<'this process' | 'alive' | 'dead' | 'unknown'> {
  if (me.boot === undefined) {
    // No /proc: the host name stands for the machine, the pid for the process (today's rule).
    if (holder.boot !== undefined || holder.host !== me.host) return 'unknown'
    if (holder.pid === me.pid) return holder.thread === me.thread ? 'dead' : 'this process'
    return isAlive(holder.pid) ? 'alive' : 'dead'
  }
  // Another boot or machine (or a lock written without /proc): nothing here can tell.
  if (holder.boot !== me.boot) return 'unknown'
  const sameNs = holder.pidNs === me.pidNs
  if (sameNs && holder.pid === me.pid && holder.start === me.start) return 'this process'
  if (holder.socket) {
    const answer = await knock(net, dir, holder.socket)
    if (answer !== 'gone') return answer
  }
  if (!sameNs) return 'unknown'
  if (!isAlive(holder.pid)) return 'dead'
  const start = await fs.readFile(`/proc/${holder.pid}/stat`, 'utf8').then(startTime, () => undefined)
  return start !== undefined && start !== holder.start ? 'dead' : 'alive'
}

/** Connects to a holder's socket: accepted, it is alive; refused, it is dead (the kernel closed it); gone, ask otherwise. */
function knock(net: typeof import('node:net'), dir: string, socket: string): Promise<'alive' | 'dead' | 'gone'> {
  return new Promise((resolve) => {
    const connection = net.connect(`${dir}/${socket}`)
    connection.once('connect', () => {
      connection.destroy()
      resolve('alive')
    })
    connection.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'dead' : error.code === 'ENOENT' ? 'gone' : 'alive'))
  })
}

/** Listens on a Unix socket for as long as the lock is held; it keeps no process alive. */
function listen(net: typeof import('node:net'), path: string): Promise<import('node:net').Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((connection) => connection.destroy())
    server.once('error', reject)
    server.listen(path, () => {
      server.unref()
      resolve(server)
    })
  })
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
    const { pid, host, thread, token, boot, pidNs, start, socket } = JSON.parse(text) as Partial<Record<keyof Holder, unknown>>
    if (!(Number.isSafeInteger(pid) && (pid as number) > 0 && typeof host === 'string' && host && Number.isSafeInteger(thread))) return undefined
    const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined)
    // The socket is a name in the directory, nothing else (it is deleted on take-over).
    const name = str(socket)
    return {
      pid: pid as number,
      host,
      thread: thread as number,
      token: str(token),
      boot: str(boot),
      pidNs: str(pidNs),
      start: str(start),
      socket: name && /^stablecoin-widget\.[0-9a-f]{8}\.sock$/.test(name) ? name : undefined,
    }
  } catch {
    return undefined
  }
}

/** Whether a process of this pid runs in this PID namespace (EPERM: it runs, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
