// The chains and tokens of the options: their shapes, the defaults (Base and Arbitrum, USDC), and
// what the screens ask of them (a chain by its id, a transaction's explorer link).
import { array, number, object, optional, string } from './check'
import { address, between, httpUrl, int, length, positive } from './fields'

export type ChainConfig = {
  id: number
  name: string
  rpcUrl?: string
  explorerUrl?: string
  nativeSymbol?: string
  /** Spenders an approval may name besides the deposit's own target (the quote guard's allowlist). */
  routers?: string[]
}
export const chain = object({
  id: number([int], [positive]),
  name: string([length(1)]),
  rpcUrl: optional(httpUrl),
  explorerUrl: optional(httpUrl),
  nativeSymbol: optional(string()),
  routers: optional(array(address)),
})

export type TokenConfig = { chainId: number; token: string; symbol: string; decimals: number }
const tokenShape = {
  chainId: number([int], [positive]),
  token: address,
  // zod's minLength then maxLength: two checks, each "Invalid input".
  symbol: string([length(1)], [length(0, 12)]),
  decimals: number([int], [between(0, Infinity)], [between(-Infinity, 36)]),
}
export const token = object(tokenShape)

export type DestinationConfig = TokenConfig & { address?: string }
export const destination = object({ ...tokenShape, address: optional(address) })

export const defaultChains: ChainConfig[] = [
  { id: 8453, name: 'Base', rpcUrl: 'https://mainnet.base.org', explorerUrl: 'https://basescan.org', nativeSymbol: 'ETH' },
  { id: 42161, name: 'Arbitrum', rpcUrl: 'https://arb1.arbitrum.io/rpc', explorerUrl: 'https://arbiscan.io', nativeSymbol: 'ETH' },
]
export const defaultSources: TokenConfig[] = [{ chainId: 8453, token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 }]
export const arbitrumUsdc: TokenConfig = {
  chainId: 42161,
  token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  symbol: 'USDC',
  decimals: 6,
}

export function mergeChains(given: ChainConfig[]): ChainConfig[] {
  const ids = new Set(given.map((c) => c?.id))
  return [...given, ...defaultChains.filter((c) => !ids.has(c.id))]
}

export function chainOf(config: { chains: ChainConfig[] }, id: number): ChainConfig {
  return config.chains.find((c) => c.id === id) ?? { id, name: `Chain ${id}` }
}

export function explorerTxUrl(chain: ChainConfig, hash: string): string | undefined {
  return chain.explorerUrl ? `${chain.explorerUrl.replace(/\/+$/, '')}/tx/${hash}` : undefined
}
