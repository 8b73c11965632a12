// A funding problem in the buyer's words, on screen and in the `error` event alike.
import { problemText } from '../../errors/words'
import { type MessageKey, t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import type { FundingProblem, PayoutRecord } from './machine'

export function fundingProblemText(problem: FundingProblem, record: PayoutRecord, chain: string, locale: string): string {
  const params = { amount: formatAmount(record.depositAmount, locale), symbol: record.symbol, chain }
  switch (problem.kind) {
    case 'wallet':
      return t(`payout.wallet.${problem.problem}` as MessageKey)
    case 'insufficient':
      return t('payout.fund.insufficient', { ...params, balance: formatAmount(problem.balance, locale) })
    case 'check':
      return problemText(problem.problem)
    default:
      return t(`payout.fund.${problem.kind}` as MessageKey, params)
  }
}

/** The `error` event's code for a funding problem. */
export function fundingProblemCode(problem: FundingProblem): string {
  if (problem.kind === 'wallet') return `wallet_${problem.problem}`
  if (problem.kind === 'refused') return `transfer_${problem.rule}`
  if (problem.kind === 'check') return problem.problem.code ?? 'check_failed'
  return problem.kind
}
