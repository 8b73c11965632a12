// The card form's pure helpers: the limits' window, and an edit's fields.
import type { CardLimits } from '../../api/schemas'
import { compareDecimal } from '../../lib/decimal'

/** Whether these limits are the ones of the form's currency and asset. */
export function limitsFor(form: { currency: string; asset?: string }, limits: CardLimits): boolean {
  return limits.fiatCurrency === form.currency && limits.cryptoCurrency === form.asset
}

/** Whether an amount (a canonical decimal string) is outside the card window. */
export function outside(limits: CardLimits, amount: string): boolean {
  return compareDecimal(amount, limits.min) < 0 || compareDecimal(amount, limits.max) > 0
}

export function definedOnly(event: { currency?: string; amount?: string; address?: string }): { currency?: string; amount?: string; address?: string } {
  const out: { currency?: string; amount?: string; address?: string } = {}
  if (event.currency !== undefined) out.currency = event.currency
  if (event.amount !== undefined) out.amount = event.amount
  if (event.address !== undefined) out.address = event.address
  return out
}
