// The embedded default engine: Postgres compiled to WASM, in this process. Loaded only when used,
// so that a partner who passes a `pg` Pool never loads it.
import type { Db, Row } from './sql'

/** Opens PGlite: in memory without `dataDir`, else persisted in that directory, by this process alone (dataDirLock.ts). */
export async function openPglite(dataDir?: string): Promise<Db> {
  let module: typeof import('@electric-sql/pglite')
  try {
    module = await import('@electric-sql/pglite')
  } catch (cause) {
    throw new Error('stablecoin-widget/server: the default store needs @electric-sql/pglite (npm install @electric-sql/pglite), or pass a pg Pool', { cause })
  }
  const onDisk = nodeFsPath(dataDir)
  const release = onDisk === undefined ? async () => {} : await (await import('./dataDirLock')).lockDataDir(onDisk)
  let pglite: InstanceType<typeof module.PGlite>
  try {
    pglite = await module.PGlite.create(dataDir)
  } catch (error) {
    await release()
    throw error
  }
  return {
    query: <R extends Row>(text: string, params?: readonly unknown[]) => pglite.query<R>(text, params ? [...params] : undefined),
    transaction: (work) =>
      pglite.transaction((tx) =>
        work({ query: <R extends Row>(text: string, params?: readonly unknown[]) => tx.query<R>(text, params ? [...params] : undefined) }),
      ),
    close: () => pglite.close().finally(release),
  }
}

/** The directory of a dataDir PGlite keeps on the file system (its own parsing: a path, or file://path); undefined for memory and browser storage. */
function nodeFsPath(dataDir: string | undefined): string | undefined {
  if (!dataDir || /^(memory|idb|opfs-ahp|memfs2opfs):\/\//.test(dataDir)) return undefined
  return dataDir.startsWith('file://') ? dataDir.slice('file://'.length) : dataDir
}
