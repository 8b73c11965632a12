// Per-user limits, counted in the store over the last 24 hours: the service's ceiling is per key,
// so keeping one user from spending the partner's whole allowance is the partner's (contract,
// "Authentication", 8).
import type { PaymentKind } from './store/kinds'
import type { PaymentStore } from './store/paymentStore'

export type UserLimits = {
  [K in PaymentKind]?: {
    /** At most this many payments of the kind per user in any 24 hours. */
    perDay?: number
    /** At most this total per currency (a decimal string) in any 24 hours; a currency not named has no ceiling. */
    maxAmount?: Readonly<Record<string, string>>
  }
}

const DAY_MS = 24 * 3_600_000
const DECIMAL = /^\d{1,18}(\.\d{1,18})?$/

/** Checks the option once, when the handler is made. */
export function checkUserLimits(limits: unknown): UserLimits {
  if (limits === undefined) return {}
  if (typeof limits !== 'object' || limits === null) throw new TypeError('userLimits must be an object of kinds')
  for (const [kind, limit] of Object.entries(limits as Record<string, { perDay?: unknown; maxAmount?: unknown }>)) {
    if (limit.perDay !== undefined && !(Number.isInteger(limit.perDay) && (limit.perDay as number) >= 0))
      throw new TypeError(`userLimits.${kind}.perDay must be a whole number`)
    for (const [currency, amount] of Object.entries((limit.maxAmount ?? {}) as Record<string, unknown>)) {
      if (typeof amount !== 'string' || !DECIMAL.test(amount))
        throw new TypeError(`userLimits.${kind}.maxAmount.${currency} must be a decimal string like "500.00"`)
    }
  }
  return limits as UserLimits
}

/** Why this new payment would pass the user's limit, or undefined when it fits. */
export async function overLimit(
  store: PaymentStore,
  limits: UserLimits,
  userId: string,
  kind: PaymentKind,
  amount: { amount: string; currency: string } | undefined,
  now = Date.now(),
): Promise<string | undefined> {
  const limit = limits[kind]
  if (!limit) return undefined
  const ceiling = amount && limit.maxAmount?.[amount.currency]
  if (limit.perDay === undefined && !ceiling) return undefined
  const used = await store.usage(userId, kind, new Date(now - DAY_MS))
  if (limit.perDay !== undefined && used.count + 1 > limit.perDay) return `at most ${limit.perDay} per day`
  if (amount && ceiling && units(used.totals[amount.currency] ?? '0') + units(amount.amount) > units(ceiling)) {
    return `at most ${ceiling} ${amount.currency} per day`
  }
  return undefined
}

/** A decimal string as an integer of 10^-18 units, so that sums and comparisons are exact. */
function units(decimal: string): bigint {
  const [whole, fraction = ''] = decimal.split('.')
  return BigInt(whole + fraction.slice(0, 18).padEnd(18, '0'))
}
