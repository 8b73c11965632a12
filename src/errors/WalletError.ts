import { walk } from './WidgetError'

/** `ended`: the wallet ended the connection itself (a WalletConnect session the phone ended, or that expired). */
export type WalletProblem = 'rejected' | 'pending' | 'unsupportedChain' | 'disconnected' | 'ended' | 'unknown'

/** A session the wallet's side ended (wallet/walletConnect/errors.ts's WalletConnectSessionEnded), told by its name: errors/ imports no wallet/. */
const endedByWallet = (e: unknown) => {
  const { name, by } = (e ?? {}) as { name?: unknown; by?: unknown }
  return name === 'WalletConnectSessionEnded' && by !== 'widget'
}

/** Maps an EIP-1193 / viem error (anywhere in its cause chain) to what the flow does next. */
export function walletProblemOf(error: unknown): WalletProblem {
  if (walk(error, endedByWallet)) return 'ended'
  const coded = walk(error, (e) => typeof (e as { code?: unknown } | null)?.code === 'number') as { code: number } | undefined
  switch (coded?.code) {
    case 4001:
      return 'rejected'
    case -32002:
      return 'pending'
    case 4902:
      return 'unsupportedChain'
    case 4900:
    case 4901:
    case 4100:
      return 'disconnected'
    default:
      return 'unknown'
  }
}
