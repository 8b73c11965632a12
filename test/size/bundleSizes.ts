// Gzip sizes of the built bundle, read from vite's manifest: what a page loads first, and what
// each flow adds when it is opened.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] }

export function readManifest(dist = 'dist'): Record<string, Chunk> {
  const path = join(dist, '.vite', 'manifest.json')
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first`)
  return JSON.parse(readFileSync(path, 'utf8'))
}

export function gzipSize(dist: string, file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
}

/** A chunk and everything it imports statically. */
export function closure(manifest: Record<string, Chunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen)
  return seen
}

export function keyOf(manifest: Record<string, Chunk>, srcSuffix: string): string {
  const key = Object.keys(manifest).find((k) => k.endsWith(srcSuffix))
  if (!key) throw new Error(`no chunk for ${srcSuffix}`)
  return key
}

export type Sizes = {
  initialJs: number
  initialCss: number
  depositJs: number
  initialFiles: string[]
  files: Record<string, number>
}

export function measure(dist = 'dist'): Sizes {
  const manifest = readManifest(dist)
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry)
  if (!entry) throw new Error('no entry chunk')
  const initial = closure(manifest, entry)
  const deposit = new Set<string>()
  for (const root of ['src/flows/deposit/DepositFlow.tsx', 'src/wallet/chainActions.ts']) {
    for (const key of closure(manifest, keyOf(manifest, root))) if (!initial.has(key)) deposit.add(key)
  }
  const files: Record<string, number> = {}
  const sum = (keys: Set<string>) =>
    [...keys].reduce((total, key) => {
      const size = gzipSize(dist, manifest[key].file)
      files[manifest[key].file] = size
      return total + size
    }, 0)
  const css = new Set(manifest[entry].css ?? [])
  return {
    initialJs: sum(initial),
    initialCss: [...css].reduce((t, f) => t + gzipSize(dist, f), 0),
    depositJs: sum(deposit),
    initialFiles: [...initial].map((key) => manifest[key].file),
    files,
  }
}
