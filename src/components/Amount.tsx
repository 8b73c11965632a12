import { formatAmount } from '../lib/decimal'

/** A decimal string formatted for the locale, with its symbol; never through a float. */
export function Amount({ value, symbol, locale }: { value: string; symbol: string; locale: string }) {
  return (
    <span class="amount">
      {formatAmount(value, locale)} {symbol}
    </span>
  )
}
