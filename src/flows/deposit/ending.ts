// The end of a deposit: its record goes once the partner's kit has heard of it.
import type { DepositContext } from './context'
import type { Tracking } from './machine'

/**
 * An ended deposit is no longer kept, once the partner's kit was told of it (report.ts): a page closed
 * before then resumes it, and tells the kit. Only this deposit goes, not one the buyer started since.
 */
export async function clearOnceTold(ctx: DepositContext, tracking: Tracking) {
  const report = ctx.reports.get(tracking.txHash)
  if (!report) return ctx.store.clear()
  if (!(await report)) return
  try {
    if (ctx.store.load()?.txHash === tracking.txHash) ctx.store.clear()
  } catch {
    // Its check not here: the record stays, and the next visit ends it again.
  }
}
