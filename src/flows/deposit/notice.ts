// What a notice on the quote screen says, in the buyer's words: shown there and sent with the
// `error` event, so the partner's logs read what the buyer read.
import { type WidgetConfig, chainOf } from '../../config/config'
import type { WalletProblem } from '../../errors/WalletError'
import { type MessageKey, t } from '../../i18n/i18n'
import type { DepositState, Rejection } from './machine'

const WALLET: Record<WalletProblem, MessageKey> = {
  rejected: 'send.rejected',
  pending: 'send.pending',
  unsupportedChain: 'wallet.problem.unsupportedChain',
  disconnected: 'wallet.problem.disconnected',
  unknown: 'send.unknown',
}

/** Why a quote was refused, in the buyer's words: nothing was sent, and a new price is the way on. */
export function rejectionText(rejection: Rejection): string {
  if (rejection.rule === 'simulation.outflow') return t('quote.rejectedOutflow', { taken: rejection.taken ?? '', asked: rejection.asked ?? '' })
  if (rejection.rule === 'simulation.revert') {
    return rejection.reason ? t('quote.rejectedRevert', { reason: rejection.reason }) : t('quote.rejectedRevertUnknown')
  }
  return t('quote.rejected')
}

export function noticeText(state: Extract<DepositState, { tag: 'quote' }>, config: WidgetConfig): string {
  const { notice, quote } = state
  const chain = chainOf(config, quote.transaction.chainId).name
  switch (notice?.kind) {
    case 'refreshed':
      return t('quote.refreshed')
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
      return t(WALLET[notice.problem])
    default:
      return ''
  }
}
