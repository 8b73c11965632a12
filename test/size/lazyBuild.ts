// A module the app does not import yet, built on its own with the app's own vite config (its
// chunk groups, its production define): what its entry costs statically, and what its import()s
// load later. The WalletConnect client is measured so until a screen imports its loader.
import { gzipSync } from 'node:zlib'
import { build, loadConfigFromFile, type Rollup } from 'vite'

export type LazyBuild = {
  /** The entry and what it imports statically, but the first load's own chunk (gzip bytes), and that code. */
  entry: { gzip: number; code: string }
  /** What its import()s add (gzip bytes), and that code. */
  lazy: { gzip: number; code: string }
}

/** `firstLoad`: the chunk groups every first load has already (vite.config.ts's `widget`), not counted. */
export async function buildAlone(entry: string, firstLoad = ['widget']): Promise<LazyBuild> {
  const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, 'vite.config.ts')
  const config = loaded!.config
  const result = await build({
    ...config,
    configFile: false,
    logLevel: 'warn',
    build: { ...config.build, write: false, manifest: false, rollupOptions: { ...config.build?.rollupOptions, input: { alone: entry } } },
  })
  const chunks = (Array.isArray(result) ? result : [result as Rollup.RollupOutput])
    .flatMap((o) => o.output)
    .filter((o): o is Rollup.OutputChunk => o.type === 'chunk')
  const byName = new Map(chunks.map((c) => [c.fileName, c]))
  const closure = (names: string[], via: (c: Rollup.OutputChunk) => string[], seen = new Set<string>()) => {
    for (const name of names) if (!seen.has(name)) seen.add(name), closure(via(byName.get(name)!), via, seen)
    return seen
  }
  const start = chunks.filter((c) => c.isEntry).map((c) => c.fileName)
  const eager = closure(start, (c) => c.imports)
  const all = closure(start, (c) => [...c.imports, ...c.dynamicImports])
  const sum = (names: Iterable<string>) => {
    const code = [...names].map((n) => byName.get(n)!.code).join('\n')
    return { gzip: [...names].reduce((total, n) => total + gzipSync(byName.get(n)!.code, { level: 9 }).length, 0), code }
  }
  return { entry: sum([...eager].filter((n) => !firstLoad.includes(byName.get(n)!.name))), lazy: sum([...all].filter((n) => !eager.has(n))) }
}
