// An amount a form refused, in the buyer's words: one function for every flow's form (its shape, the
// card's window; a rail's limit through limitWords.ts, which only the bank flows load), so no screen
// picks the keys itself.
import { type MessageKey, t } from '../i18n/i18n'
import { type AmountProblem, decimalMarkOf, formatAmount } from '../lib/decimal'

/** What a form says about its amount: its shape, or the card's window. */
export type AmountError = { kind: 'amount'; problem: AmountProblem } | { kind: 'limits'; min: string; max: string }

export type AmountWords = {
  /** The amount's unit: a token or a currency. */
  unit: string
  decimals: number
  locale: string
  /** A flow's own words for too many decimals (a currency's cents rather than a token's). */
  decimalsKey?: MessageKey
}

/** The words under the amount field for a form's error; undefined when the error is not the amount's. */
export function amountErrorText(error: AmountError | { kind: string } | undefined, words: AmountWords): string | undefined {
  if (error && 'problem' in error && error.kind === 'amount') {
    if (error.problem === 'decimals' && words.decimalsKey) return t(words.decimalsKey)
    const example = decimalMarkOf(words.locale) === ',' ? '50,00' : '50.00'
    return t(`amount.${error.problem}`, { example, token: words.unit, decimals: words.decimals })
  }
  if (error && 'min' in error) {
    const fmt = (v: string) => formatAmount(v, words.locale)
    return t('card.outsideWindow', { currency: words.unit, min: fmt(error.min), max: fmt(error.max) })
  }
  return undefined
}
