// Gzip sizes of the built bundle, read from vite's manifest: the script-tag loader, what the
// hosted page loads first, and what each flow needs before its first screen is interactive.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'

type Chunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }

export function readManifest(dist = 'dist'): Record<string, Chunk> {
  const path = join(dist, '.vite', 'manifest.json')
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first`)
  return JSON.parse(readFileSync(path, 'utf8'))
}

export function gzipSize(dist: string, file: string): number {
  return gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
}

export function brotliSize(dist: string, file: string): number {
  return brotliCompressSync(readFileSync(join(dist, file))).length
}

/** A chunk and everything it imports statically. */
export function closure(manifest: Record<string, Chunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen)
  return seen
}

export type Sizes = {
  loader: number
  initial: number
  flows: { deposit: number; card: number; onboarding: number }
  /** The same sums in brotli bytes (for the benchmark; the budget is gzip). */
  brotli: { loader: number; initial: number; flows: { deposit: number; card: number; onboarding: number }; wallet: number }
  /** The deposit flow's wallet code (viem), loaded once a wallet is chosen. */
  wallet: number
  initialFiles: string[]
  /** The files of the wallet code, loaded once a wallet is chosen. */
  walletFiles: string[]
  files: Record<string, { gzip: number; brotli: number }>
}

export function measure(dist = 'dist'): Sizes {
  const manifest = readManifest(dist)
  const files: Sizes['files'] = {}
  const sizeIn = (keys: Iterable<string>, kind: 'gzip' | 'brotli') =>
    [...keys].reduce((total, key) => {
      const file = manifest[key].file
      files[file] ??= { gzip: gzipSize(dist, file), brotli: brotliSize(dist, file) }
      return total + files[file][kind]
    }, 0)
  const size = (keys: Iterable<string>) => sizeIn(keys, 'gzip')
  const initialKeys = closure(manifest, 'index.html')
  const flow = (src: string) => new Set([...initialKeys, ...closure(manifest, src)])
  const walletKeys = [...closure(manifest, 'src/wallet/chainActions.ts')].filter((k) => !flow('src/flows/deposit/DepositFlow.tsx').has(k))
  return {
    loader: gzipSize(dist, 'stablecoin-widget.js'),
    initial: size(initialKeys),
    flows: {
      deposit: size(flow('src/flows/deposit/DepositFlow.tsx')),
      card: size(flow('src/flows/card/CardFlow.tsx')),
      onboarding: size(flow('src/flows/onboarding/OnboardingFlow.tsx')),
    },
    wallet: size(walletKeys),
    brotli: {
      loader: brotliSize(dist, 'stablecoin-widget.js'),
      initial: sizeIn(initialKeys, 'brotli'),
      flows: {
        deposit: sizeIn(flow('src/flows/deposit/DepositFlow.tsx'), 'brotli'),
        card: sizeIn(flow('src/flows/card/CardFlow.tsx'), 'brotli'),
        onboarding: sizeIn(flow('src/flows/onboarding/OnboardingFlow.tsx'), 'brotli'),
      },
      wallet: sizeIn(walletKeys, 'brotli'),
    },
    initialFiles: [...initialKeys].map((k) => manifest[k].file),
    walletFiles: walletKeys.map((k) => manifest[k].file),
    files,
  }
}
