// After a reload (or a lost answer) while the wallet was asked: what arrived is read before the
// buyer may choose anything.
import type { Hex } from 'viem'
import { chainOf } from '../../config/config'
import { describeError } from '../../errors/describeError'
import { ResponseShapeError } from '../../errors/ApiError'
import { payoutFunded } from '../../lib/status/payout'
import type { PayoutContext, StateOf } from './context'

/**
 * The service's status and the deposit address's token balance on chain. Money there, or a status
 * past pending, is followed; only when neither shows anything may the buyer choose to send (a
 * second confirmation).
 */
export async function verify(ctx: PayoutContext, state: StateOf<'funding'>, alive: () => boolean) {
  const { record } = state
  const { funding: dispatch } = ctx
  try {
    if (ctx.spent.has(record.depositAddress)) return alive() && dispatch({ type: 'ALREADY_FUNDED' })
    const status = await ctx.calls.status(ctx, record.id)
    if (!alive()) return
    // Only this payout's own record speaks for it.
    if (status.id !== record.id) throw new ResponseShapeError('status', 'id', 'the status of another payout')
    if (payoutFunded(status, record.id)) return dispatch({ type: 'ALREADY_FUNDED' })
    const w = await ctx.loadChainActions()
    const held = await w.tokenBalance(w.readClient(chainOf(ctx.config, record.chain)), ctx.source.token as Hex, record.depositAddress as Hex)
    if (!alive()) return
    dispatch(held > 0n ? { type: 'ALREADY_FUNDED' } : { type: 'VERIFIED' })
  } catch (error) {
    if (alive()) dispatch({ type: 'VERIFY_FAILED', problem: { kind: 'check', problem: describeError(error) } })
  }
}
