import type { WidgetConfig } from '../../config/config'
import type { Source } from './base'

const NATIVE = /^0x(0{40}|e{40})$/i

/** What the payout is funded with: the embedding's first ERC-20 source (the service never picks the token or chain). */
export function payoutSourceOf(config: WidgetConfig): Source {
  const token = config.sources.find((s) => !NATIVE.test(s.token)) ?? config.sources[0]
  return { chainId: token.chainId, token: token.token, symbol: token.symbol, decimals: token.decimals }
}
