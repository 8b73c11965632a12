// What the quote screen's notice is about: the chain, the token and the amount the words name
// (the words themselves are in errors/words.ts, for the screen and the `error` event alike).
import { type WidgetConfig, chainOf } from '../../config/config'
import type { SendContext } from '../../errors/words'
import type { DepositState } from './machine'

export function noticeContext(state: Extract<DepositState, { tag: 'quote' }>, config: WidgetConfig): SendContext {
  const { quote } = state
  const token = (config.sources[state.form.source] ?? config.sources[0]).symbol
  return { flow: 'deposit', chain: chainOf(config, quote.transaction.chainId).name, symbol: token, amount: quote.amountIn }
}
