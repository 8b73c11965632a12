// Where a payout lands, as its form can say it before the quote names the rail (issue 39, item 17).
// Apart from limits.ts so that only the payout's chunk carries it, not every amount field's.
import { railKind } from './limits'

/** Where a payout lands as the form can say it: one kind when its rails agree, `any` when they differ or none is known yet. */
export type Landing = ReturnType<typeof railKind> | 'any'

/** The kind every one of these rails lands in (a forced rail alone, or each rail the currency takes), else `any`. */
export function landingOf(rails: readonly string[]): Landing {
  const kinds = new Set(rails.map(railKind))
  return kinds.size === 1 ? [...kinds][0] : 'any'
}
