// While the funding step waits, before any wallet is asked to send: the payout's status, now
// and then (the first look one interval in: the creation just said pending), so a transfer made
// another way (the address copied into another wallet or app) is seen and followed, never sent again.
import { payoutFunded } from '../../lib/status/payout'
import { pollLater } from '../../polling/pollLater'
import type { PayoutContext, StateOf } from './context'

export function watchFunding(ctx: PayoutContext, state: StateOf<'funding'>): () => void {
  const { record } = state
  const { config } = ctx
  const funded = (s: { id: string; status: string; depositTxHash?: string }) => payoutFunded(s, record.id)
  const intervalMs = ctx.pollIntervalMs ?? config.timings?.bankPollMs ?? config.timings?.pollMs ?? 5_000
  let stop: (() => void) | undefined
  const timer = ctx.clock.setTimeout(() => (stop = poll()), intervalMs)
  return () => {
    ctx.clock.clearTimeout(timer)
    stop?.()
  }
  function poll() {
    return pollLater({
      key: ['payout-funding', record.id],
      fetch: () => ctx.calls.status(ctx, record.id),
      isTerminal: funded,
      intervalMs,
      // A record of another id is no news of this one (payoutFunded).
      onData: (s) => {
        if (funded(s)) ctx.funding({ type: 'ALREADY_FUNDED' })
      },
      // The buyer's own send checks the status again before any prompt: trouble here only waits.
      onError: () => {},
    })
  }
}
