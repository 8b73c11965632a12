// What a notice on the quote screen says, in the buyer's words: shown there and sent with the
// `error` event, so the partner's logs read what the buyer read.
import { type WidgetConfig, chainOf } from '../../config/config'
import { walletProblemText } from '../../errors/words'
import { t } from '../../i18n/i18n'
import type { DepositState } from './machine'

export function noticeText(state: Extract<DepositState, { tag: 'quote' }>, config: WidgetConfig): string {
  const { notice, quote } = state
  const chain = chainOf(config, quote.transaction.chainId).name
  switch (notice?.kind) {
    case 'elsewhere':
      return t('send.elsewhere')
    case 'wrongChain':
      return t('send.wrongChain', { chain })
    case 'insufficient': {
      const token = (config.sources[state.form.source] ?? config.sources[0]).symbol
      return t('send.insufficient', { balance: notice.balance, token, amount: quote.amountIn })
    }
    case 'insufficientGas':
      return t('send.insufficientGas', { chain })
    case 'wallet':
      return walletProblemText(notice.problem)
    default:
      return ''
  }
}
