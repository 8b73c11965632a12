// What the quote screen's notice is about: the chain, the token and the amount the words name
// (the words themselves are in errors/words.ts, for the screen and the `error` event alike).
import { type WidgetConfig, chainOf } from '../../config/config'
import { type SendContext, sendProblemText } from '../../errors/words'
import { t } from '../../i18n/i18n'
import type { DepositState, Notice } from './machine'

export function noticeContext(state: Extract<DepositState, { tag: 'quote' }>, config: WidgetConfig): SendContext {
  const { quote } = state
  const token = (config.sources[state.form.source] ?? config.sources[0]).symbol
  return { flow: 'deposit', chain: chainOf(config, quote.transaction.chainId).name, symbol: token, amount: quote.amountIn }
}

/** The notice in the buyer's words; a chain the partner's kit does not read (linkWallet.ts) is named. */
export function noticeText(notice: Notice, c: SendContext): string {
  return notice.kind === 'check' && notice.problem.code === 'chain_not_configured' ? t(notice.problem.key, { chain: c.chain }) : sendProblemText(notice, c)
}
