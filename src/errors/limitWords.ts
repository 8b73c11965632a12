// A rail's limit the amount is outside of, in the buyer's words: the bank flows' part of the amount's
// words (amountWords.ts), its own module so the flows without limits do not load it.
import { type Message, limitText } from '../i18n/limits'
import { formatAmount } from '../lib/decimal'
import { type LimitCheck, railName } from '../lib/limits'
import { type AmountError, type AmountWords, amountErrorText } from './amountWords'

/** A failed limit check in words: "The largest transfer SEPA Instant takes is 100,000 EUR." */
export function limitProblem(check: Extract<LimitCheck, { ok: false }>, locale: string): Message {
  return {
    key: check.problem === 'below_min' ? 'limits.belowMin' : 'limits.aboveMax',
    params: { rail: railName(check.rail), amount: formatAmount(check.limit, locale, check.currency) },
  }
}

export type LimitError = { kind: string; check: Extract<LimitCheck, { ok: false }> }

/** amountErrorText, and a rail's limit (a form's `limit` or `limits` error with its check). */
export function amountOrLimitText(error: AmountError | LimitError | { kind: string } | undefined, words: AmountWords): string | undefined {
  return error && 'check' in error ? limitText(limitProblem(error.check, words.locale)) : amountErrorText(error, words)
}
