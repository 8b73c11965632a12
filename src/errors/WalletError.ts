import { walk } from './WidgetError'

export type WalletProblem = 'rejected' | 'pending' | 'unsupportedChain' | 'disconnected' | 'unknown'

/** Maps an EIP-1193 / viem error (anywhere in its cause chain) to what the flow does next. */
export function walletProblemOf(error: unknown): WalletProblem {
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
