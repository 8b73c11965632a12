// The deposit on the source chain: its receipt (or its replacement), and a check that the chain
// still knows it.
import type { Client, Hex } from 'viem'
import { chainOf } from '../../config/config'
import { providerByRdns } from '../../wallet/eip6963'
import type { DepositContext } from './context'
import type { DepositState, ReceiptSummary, Tracking } from './machine'

type TrackingState = Extract<DepositState, { tag: 'tracking' }>

const walletOf = (tracking: Tracking) => (tracking.walletRdns ? providerByRdns(tracking.walletRdns) : undefined)

/** Whether anything here can read the chain: its own RPC, or the wallet that sent on it. */
function readable(ctx: DepositContext, tracking: Tracking) {
  const chain = ctx.config.chains.find((c) => c.id === tracking.chainId)
  if (!chain) return false
  return !!chain.rpcUrl || !!walletOf(tracking)
}

/** Waits for the receipt (retrying every 3 s on trouble): RECEIPT, or REPLACED when another transaction took its place. */
export async function confirm(ctx: DepositContext, state: TrackingState, alive: () => boolean, signal: AbortSignal) {
  const { tracking } = state
  const { dispatch, store } = ctx
  store.save(tracking)
  // No endless loop on a chain nothing here can read: say so, and let the buyer stop following.
  if (!readable(ctx, tracking)) return dispatch({ type: 'UNREADABLE' })
  const w = await ctx.loadChainActions()
  const chain = chainOf(ctx.config, tracking.chainId)
  watchForDrop(ctx, tracking, alive, signal).catch(() => {})
  const onReplaced = (r: { reason: 'repriced' | 'replaced' | 'cancelled'; hash: string }) => {
    if (!alive()) return
    if (r.reason === 'repriced') store.save({ ...tracking, txHash: r.hash })
    dispatch({ type: 'REPLACED', reason: r.reason, txHash: r.hash })
  }
  while (alive()) {
    try {
      const reader = w.readClient(chain, walletOf(tracking), signal)
      const receipt = await w.waitReceipt(reader, tracking.txHash as Hex, onReplaced, ctx.sent.get(tracking.txHash.toLowerCase()), signal)
      if (!alive()) return
      ctx.receipts.set(receipt.txHash.toLowerCase(), { txHash: receipt.txHash, logs: receipt.logs })
      if (receipt.txHash.toLowerCase() !== tracking.txHash.toLowerCase()) return
      dispatch({ type: 'WAITING', waiting: false })
      return dispatch({ type: 'RECEIPT', success: receipt.success })
    } catch {
      if (!alive()) return
      dispatch({ type: 'WAITING', waiting: true })
      await ctx.sleep(3_000)
    }
  }
}

/**
 * A transaction the chain stops knowing (dropped from the mempool) never gets a receipt. After two
 * checks that cannot find it, the buyer is told; it is never resent for them.
 */
async function watchForDrop(ctx: DepositContext, tracking: Tracking, alive: () => boolean, signal: AbortSignal) {
  const w = await ctx.loadChainActions()
  let reader: Client
  try {
    // The signal stops the client's own retries too (a failed read is retried after a delay).
    reader = w.readClient(chainOf(ctx.config, tracking.chainId), walletOf(tracking), signal)
  } catch {
    return
  }
  let misses = 0
  while (alive()) {
    await ctx.sleep(ctx.dropCheckMs ?? ctx.config.timings?.dropCheckMs ?? 10_000)
    if (!alive()) return
    const seen = (await w.sentTransaction(reader, tracking.txHash as Hex)) !== undefined
    misses = seen ? 0 : misses + 1
    ctx.dispatch({ type: 'MISSING', missing: misses >= 2 })
  }
}

/**
 * The receipt of a deposit sent before this visit (or in another tab): what the status request
 * carries. The signal stops the reading (it has no time limit) when the widget goes.
 */
export async function readReceipt(ctx: DepositContext, tracking: Tracking, signal: AbortSignal): Promise<ReceiptSummary> {
  const w = await ctx.loadChainActions()
  const reader = w.readClient(chainOf(ctx.config, tracking.chainId), walletOf(tracking), signal)
  const receipt = await w.waitReceipt(reader, tracking.txHash as Hex, () => {}, undefined, signal)
  return { txHash: receipt.txHash, logs: receipt.logs }
}
