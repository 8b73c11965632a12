// A Postgres server of its own for a test: Debian's postgresql 15, a fresh cluster in a temporary
// directory on a free loopback port, stopped by its data directory (TOOLCHAIN.md).
import { execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const BIN = '/usr/lib/postgresql/15/bin'

export type ThrowawayPostgres = { port: number; stop(): void }

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'scw-pg-'))
  // initdb refuses to run as root: the cluster belongs to the postgres user.
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
  chownSync(dir, uid, uid)
  const asPostgres = (tool: string, args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', `${BIN}/${tool}`, ...args], { stdio: 'pipe' })
  const data = join(dir, 'data')
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  const port = await freePort()
  asPostgres('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start'])
  return {
    port,
    stop() {
      try {
        asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** A port in 56000-56999 (this worktree's range) that nothing listens on. */
async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 56000 + Math.floor(Math.random() * 1000)
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(false))
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
    })
    if (free) return port
  }
  throw new Error('no free port in 56000-56999')
}
