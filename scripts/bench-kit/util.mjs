// Helpers of `npm run bench:kit`: a throwaway Postgres 15 (the approach of
// test/unit/server/store/throwawayPostgres.ts, which is TypeScript: copied, not imported), free
// ports, CPU pinning and percentiles.
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'

const BIN = '/usr/lib/postgresql/15/bin'

/**
 * A Postgres 15 server of the bench's own: a fresh cluster in a temporary directory on a free
 * loopback port, owned by the postgres user (initdb refuses root), with Postgres's default
 * settings (fsync and synchronous_commit on: what a partner's server runs), pinned to `cpu` when
 * given (its backends inherit the postmaster's affinity). Stopped by its data directory, never by
 * process name; `stop` is idempotent.
 */
export async function startPostgres({ cpu } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'scw-bench-pg-'))
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
  chownSync(dir, uid, uid)
  const pin = cpu === undefined ? [] : ['taskset', '-c', String(cpu)]
  const asPostgres = (tool, args) => {
    const [cmd, ...rest] = [...pin, 'runuser', '-u', 'postgres', '--', `${BIN}/${tool}`, ...args]
    return execFileSync(cmd, rest, { stdio: 'pipe' })
  }
  const data = join(dir, 'data')
  let started = false
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    try {
      if (started) asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
    } catch {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } catch {}
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  try {
    asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres'])
    const port = await freePort()
    started = true
    asPostgres('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start'])
    const version = execFileSync(`${BIN}/postgres`, ['--version'], { encoding: 'utf8' }).trim()
    // The postmaster's pid, from its pid file (its backends are its children).
    const pid = () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
    return { port, dir, version, pid, stop }
  } catch (error) {
    stop()
    throw error
  }
}

/** A loopback port in 57000-57999 that nothing listens on now. */
export async function freePort() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 57000 + Math.floor(Math.random() * 1000)
    const free = await new Promise((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error('bench:kit: no free port in 57000-57999')
}

/** Pins this process, every thread of it, to one CPU (`taskset -a -p`): false where it cannot. */
export function pinSelf(cpu) {
  return spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' }).status === 0
}

/** The CPUs this process may run on, as taskset prints them ("0", "0,1"). */
export function affinity(pid = process.pid) {
  const out = spawnSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' }).stdout ?? ''
  return out.split(':').pop()?.trim() ?? '?'
}

/** The value at quantile q (0..1) of the sorted numbers, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

export const ms = (n) => (Number.isFinite(n) ? (n >= 100 ? `${n.toFixed(0)} ms` : n >= 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(2)} ms`) : '–')
export const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** What the figures were measured on. */
export function machine() {
  const list = cpus()
  const load = (spawnSync('uptime', [], { encoding: 'utf8' }).stdout ?? '').trim()
  return { cpu: list[0]?.model ?? '?', cores: list.length, node: process.version, load, date: new Date().toISOString() }
}

/** `uptime`'s three load averages. */
export function loadAverage() {
  const out = spawnSync('uptime', [], { encoding: 'utf8' }).stdout ?? ''
  return /load average:\s*(.*)$/.exec(out.trim())?.[1] ?? '?'
}
