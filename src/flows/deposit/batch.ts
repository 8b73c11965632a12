// A batch (EIP-5792) the wallet holds: asked until it tells the deposit's hash (a status read, no prompt).
import type { DepositContext } from './context'
import type { DepositState } from './machine'
import { providerByRdns } from '../../wallet/eip6963'

type TrackingState = Extract<DepositState, { tag: 'tracking' }>

export async function followBatch(ctx: DepositContext, state: TrackingState, alive: () => boolean) {
  const { tracking } = state
  const { dispatch, store } = ctx
  store.save(tracking)
  const w = await ctx.loadChainActions()
  while (alive()) {
    try {
      const provider = tracking.walletRdns ? providerByRdns(tracking.walletRdns) : undefined
      if (!provider) throw new Error('the wallet has not announced itself yet')
      const answer = await w.batchStatus(provider, tracking.callsId ?? '')
      if (!alive()) return
      if (answer.status === 'failure') return dispatch({ type: 'BATCH_FAILED', outcome: answer.reverted ? 'reverted' : 'dropped' })
      if (answer.status === 'success' && answer.hashes.length > 0) {
        // Calls run in order: the last transaction is the deposit, an earlier one the approval.
        const txHash = answer.hashes[answer.hashes.length - 1]
        const approvalHash = answer.hashes.length > 1 ? answer.hashes[0] : undefined
        store.save({ ...tracking, txHash, approvalHash })
        dispatch({ type: 'WAITING', waiting: false })
        return dispatch({ type: 'BATCHED', txHash, approvalHash })
      }
      await ctx.sleep(1_000)
    } catch {
      if (!alive()) return
      dispatch({ type: 'WAITING', waiting: true })
      await ctx.sleep(2_000)
    }
  }
}
