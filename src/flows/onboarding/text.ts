// The bank flow's problems in the buyer's words: the banking partner's own message when it sent one.
import { problemText } from '../../errors/describe'
import { t } from '../../i18n/i18n'
import type { Problem } from '../deposit/machine'

export function fiatProblemText(problem: Problem): string {
  return problem.key === 'error.unknown' || problem.key === 'error.invalid' ? t('fiat.partnerError', { detail: problem.detail ?? '' }) : problemText(problem)
}
