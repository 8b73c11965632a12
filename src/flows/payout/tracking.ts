// After the point of no return: the service's status of the payout, followed by one tab until it ends.
import type { Effect } from '../../kernel/effects'
import { followEffects } from '../../kernel/followEffects'
import type { PayoutContext, StateOf } from './context'
import { isFinalPayoutStatus } from './record'
import { whenChecked } from '../../storage/storedCheck'

export function trackingEffects(ctx: PayoutContext, state: StateOf<'tracking'>): Effect[] {
  const { config, funding: dispatch } = ctx
  return followEffects(
    'payout',
    state.record.id,
    state,
    {
      fetch: () => ctx.calls.status(ctx, state.record.id),
      isTerminal: (s) => isFinalPayoutStatus(s.status),
      intervalMs: ctx.pollIntervalMs ?? config.timings?.bankPollMs ?? config.timings?.pollMs ?? 5_000,
      onData: (s) => dispatch({ type: 'TRACK', status: s }),
    },
    dispatch,
  )
}

/**
 * The payout ended: its record is kept with the status it ended with, so a reload shows this result
 * (never an empty form), and our reference goes. "New payout" forgets the record (the form's
 * `abandoned`). Once the record's check is here, even after the flow is gone.
 */
export function keepResult(ctx: PayoutContext, state: StateOf<'result'>) {
  const { store } = ctx
  whenChecked(() => store.save({ ...state.record, final: state.status }), store.ready, store.arrived)
  ctx.references.clear()
}
