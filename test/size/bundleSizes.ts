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

/** Each flow's entry module: what the App imports when the flow starts. */
export const FLOW_ENTRIES = {
  deposit: 'src/flows/deposit/DepositFlow.tsx',
  card: 'src/flows/card/CardFlow.tsx',
  onboarding: 'src/flows/onboarding/OnboardingFlow.tsx',
  bankDeposit: 'src/flows/bankDeposit/BankDepositFlow.tsx',
  payout: 'src/flows/payout/PayoutFlow.tsx',
  cardPayout: 'src/flows/payout/CardPayoutFlow.tsx',
} as const
export type FlowName = keyof typeof FLOW_ENTRIES
/** The wallet code each flow loads once a wallet is chosen: viem's actions, with the deposit's quote guard. */
const WALLET_ENTRIES = { deposit: ['src/wallet/chainActions.ts', 'src/flows/deposit/guard.ts'], payout: ['src/wallet/chainActions.ts'] } as const

export type Sizes = {
  loader: number
  initial: number
  flows: Record<FlowName, number>
  /** The same sums in brotli bytes (for the benchmark; the budget is gzip). */
  brotli: { loader: number; initial: number; flows: Record<FlowName, number>; wallet: number; payoutWallet: number }
  /** The deposit flow's wallet code (viem), loaded once a wallet is chosen. */
  wallet: number
  /** The same for the payout: the wallet code its first load does not have already. */
  payoutWallet: number
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
  const flow = (name: FlowName) => {
    if (!manifest[FLOW_ENTRIES[name]]) throw new Error(`${FLOW_ENTRIES[name]} is not in ${dist}'s manifest: a build older than the flow? Run \`npm run build\``)
    return new Set([...initialKeys, ...closure(manifest, FLOW_ENTRIES[name])])
  }
  const walletBeyond = (name: keyof typeof WALLET_ENTRIES) =>
    [...new Set(WALLET_ENTRIES[name].flatMap((entry) => [...closure(manifest, entry)]))].filter((k) => !flow(name).has(k))
  const walletKeys = walletBeyond('deposit')
  const payoutWalletKeys = walletBeyond('payout')
  const names = Object.keys(FLOW_ENTRIES) as FlowName[]
  const perFlow = (kind: 'gzip' | 'brotli') => Object.fromEntries(names.map((name) => [name, sizeIn(flow(name), kind)])) as Record<FlowName, number>
  return {
    loader: gzipSize(dist, 'stablecoin-widget.js'),
    initial: size(initialKeys),
    flows: perFlow('gzip'),
    wallet: size(walletKeys),
    payoutWallet: size(payoutWalletKeys),
    brotli: {
      loader: brotliSize(dist, 'stablecoin-widget.js'),
      initial: sizeIn(initialKeys, 'brotli'),
      flows: perFlow('brotli'),
      wallet: sizeIn(walletKeys, 'brotli'),
      payoutWallet: sizeIn(payoutWalletKeys, 'brotli'),
    },
    initialFiles: [...initialKeys].map((k) => manifest[k].file),
    walletFiles: walletKeys.map((k) => manifest[k].file),
    files,
  }
}
