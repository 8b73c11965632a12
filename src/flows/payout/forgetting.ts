// A payout that ended, or one the buyer started over from before any transfer, is not kept.
import { whenChecked } from '../../storage/storedCheck'
import type { PayoutContext } from './context'
import type { PayoutStore } from './persisted'

/** This payout's record (only it: another buyer's stays) and our reference go. A signed reference's claim stays. */
export function forget(ctx: PayoutContext, id: string) {
  clearOnceChecked(ctx.store, id)
  ctx.references.clear()
}

/**
 * Clears one payout's record, once its check is here if it is not yet (even after the flow is
 * gone: a finished payout is not kept). Outside the effects' scope, so the wait holds the store
 * and the id, never the flow.
 */
function clearOnceChecked(store: PayoutStore, id: string) {
  whenChecked(() => store.clear(id), store.ready, store.arrived)
}
