// The unit tests' PGlite starts from a copy of a fresh cluster instead of running initdb each time
// (vitest.config.ts `setupFiles`). initdb is most of the cost of opening a PGlite: about 4 s of CPU
// against well under one for loading the same files (33 s against 3.3 s on this machine under a
// load of 28, 2026-11-25), and a kit test file opens one or more. The store sees the same database:
// the copy is what initdb made, taken before any query, and the kit's migrations still run on it.
// Only a PGlite in memory (the kit's default store) or in an empty directory starts from the copy.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { vi } from 'vitest'

type Module = typeof import('@electric-sql/pglite')

vi.mock('@electric-sql/pglite', async (importOriginal) => {
  const real = await importOriginal<Module>()
  const create = (dataDirOrOptions?: unknown, options?: Record<string, unknown>) => {
    if (dataDirOrOptions === undefined && options === undefined) return fromSnapshot(real, {})
    if (typeof dataDirOrOptions === 'string' && options === undefined && isEmptyDir(dataDirOrOptions)) return fromSnapshot(real, { dataDir: dataDirOrOptions })
    return (real.PGlite.create as (...args: unknown[]) => ReturnType<Module['PGlite']['create']>)(dataDirOrOptions, options)
  }
  // `new PGlite()` and `instanceof` still reach the real class: only `create` is taken over.
  const PGlite = new Proxy(real.PGlite, { get: (target, key, receiver) => (key === 'create' ? create : Reflect.get(target, key, receiver)) })
  return { ...real, PGlite }
})

/** A directory path (not a `memory://`-style URL) with no cluster in it yet. */
function isEmptyDir(dataDir: string): boolean {
  if (/^[a-z0-9]+:\/\//.test(dataDir) && !dataDir.startsWith('file://')) return false
  const path = dataDir.startsWith('file://') ? dataDir.slice('file://'.length) : dataDir
  return !existsSync(join(path, 'PG_VERSION'))
}

let snapshot: Promise<Blob> | undefined

async function fromSnapshot(real: Module, options: { dataDir?: string }) {
  snapshot ??= loadSnapshot(real)
  return real.PGlite.create({ ...options, loadDataDir: await snapshot })
}

/**
 * The fresh cluster's files, made once per PGlite version and kept in .sandbox-state/ (ignored by
 * git): the first worker to need it runs initdb and writes it whole (a rename), the others read it.
 */
async function loadSnapshot(real: Module): Promise<Blob> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }
  const file = join('.sandbox-state', `pglite-${version}-initdb.tar`)
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const fresh = await real.PGlite.create()
  const blob = await fresh.dumpDataDir('none')
  await fresh.close()
  mkdirSync('.sandbox-state', { recursive: true })
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`
  writeFileSync(partial, Buffer.from(await blob.arrayBuffer()))
  renameSync(partial, file)
  return blob
}
