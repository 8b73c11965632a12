// The prompts of a send (send.ts): one batch where the wallet can, else the approval and the deposit
// in turn; each persisted the moment the wallet answers with it, before anything else.
import type { Client } from 'viem'
import type { Call } from '../../wallet/chainActions'
import type { Tracking } from './machine'
import { sourceOf } from './quoting'
import { stillValid } from './sendChecks'
import type { Sending } from './sending'

export async function sendAsBatch(s: Sending, calls: Call[]) {
  if (!(await stillValid(s))) return
  s.step({ type: 'WORK', work: 'batching' })
  const callsId = await s.w.sendBatch(s.provider, s.chain, s.account, calls)
  const tracking = trackingOf(s, '', callsId)
  // Persisted like a hash: a reload follows the batch, with no second prompt.
  s.ctx.store.save(tracking)
  s.ctx.dispatch({ type: 'SENT', tracking })
}

/** The approval (when the allowance is short) and its receipt, then the deposit. */
export async function sendInTurn(s: Sending, reader: Client, calls: Call[], approve: Call | undefined) {
  const { ctx, w, provider, chain, account, step } = s
  if (approve) {
    if (!(await stillValid(s))) return
    step({ type: 'WORK', work: 'approving' })
    const hash = await w.send(provider, chain, account, approve)
    step({ type: 'WORK', work: 'approvalConfirming', approvalHash: hash })
    const receipt = await w.waitReceipt(reader, hash, () => {}, undefined, s.signal)
    if (!receipt.success) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'unknown' } })
  }
  if (!(await stillValid(s))) return
  step({ type: 'WORK', work: 'sending' })
  const txHash = await w.send(provider, chain, account, calls[calls.length - 1])
  const tracking = trackingOf(s, txHash)
  // Persist before anything else: from here on the buyer's money is moving.
  ctx.store.save(tracking)
  const known = await w.sentTransaction(reader, txHash)
  if (known) ctx.sent.set(txHash.toLowerCase(), known)
  ctx.dispatch({ type: 'SENT', tracking })
}

function trackingOf(s: Sending, txHash: string, callsId?: string): Tracking {
  const { config, clock } = s.ctx
  const { quote, session, approvalHash } = s.state
  return {
    provider: quote.provider,
    chainId: s.chain.id,
    txHash,
    callsId,
    walletRdns: session.wallet.rdns,
    summary: {
      amountIn: quote.amountIn,
      amountOut: quote.amountOut,
      fee: quote.fee,
      sourceChainId: s.chain.id,
      destChainId: config.destination?.chainId ?? config.defaultDestination.chainId,
      sourceSymbol: sourceOf(s.ctx, s.state.form).symbol,
      destSymbol: config.destination?.symbol ?? config.defaultDestination.symbol,
    },
    createdAt: clock.now(),
    approvalHash,
  }
}
