// Following a sent deposit: one tab holds the lock on it; that tab follows the batch until its hash
// is known, the receipt on the source chain, then the service's status until it ends.
import { getDepositStatus } from '../../api/deposit'
import { describeError } from '../../errors/describeError'
import type { Effect } from '../../kernel/effects'
import { tabLockEffect } from '../../kernel/followEffects'
import { pollLater } from '../../polling/pollLater'
import { discoverWallets } from '../../wallet/eip6963'
import { followBatch } from './batch'
import type { DepositContext } from './context'
import type { DepositState, ReceiptSummary, Tracking } from './machine'
import { confirm, readReceipt } from './receipt'

type TrackingState = Extract<DepositState, { tag: 'tracking' }>

export function trackingEffects(ctx: DepositContext, state: TrackingState): Array<Effect | undefined> {
  const { txHash } = state.tracking
  // The batch's id (or the address paid by address) when there is one: the lock keeps its name once the hash is known.
  const name = (state.tracking.callsId ?? state.tracking.watch?.address ?? txHash).toLowerCase()
  const lock = tabLockEffect('deposit', name, ctx.dispatch)
  // Only the tab holding the lock reads the chain and polls; the others wait their turn.
  if (state.tab !== 'held') return [lock]
  if (state.phase === 'watching') {
    const watch: Effect = {
      key: `watch:${name}:${state.attempt}`,
      start: (alive, signal) => void import('./byAddressEffects').then((m) => m.watchTransfer(ctx, state, alive, signal)),
    }
    return [lock, watch]
  }
  if (state.phase === 'batching') {
    const batch: Effect = {
      key: `batch:${name}:${state.attempt}`,
      start: (alive) => {
        // After a reload the wallet must announce itself again before it can be asked.
        const stop = discoverWallets(ctx.target, () => {})
        void followBatch(ctx, state, alive)
        return stop
      },
    }
    return [lock, batch]
  }
  if (state.phase === 'confirming') {
    return [lock, { key: `receipt:${txHash}:${state.attempt}`, start: (alive, signal) => void confirm(ctx, state, alive, signal) }]
  }
  return [
    lock,
    { key: `status:${txHash}:${state.attempt}`, start: (alive, signal) => followStatus(ctx, state, alive, signal) },
    reportEffect(ctx, state.tracking),
  ]
}

/**
 * With a partner backend, the kit is told about the deposit once its receipt is in (report.ts,
 * fetched then). The report outlives this state (the widget going stops it), so a deposit that ends
 * meanwhile keeps its record until the kit was told.
 */
function reportEffect(ctx: DepositContext, tracking: Tracking): Effect | undefined {
  const { txHash, kit } = tracking
  if (!ctx.config.partnerBase || kit?.txHash === txHash) return undefined
  return {
    key: `report:${txHash}`,
    start: () => {
      if (!ctx.reports.has(txHash))
        ctx.reports.set(
          txHash,
          import('./report').then(
            (m) => m.reportSent(ctx, tracking),
            () => false,
          ),
        )
    },
  }
}

/** The service's status of the deposit, polled from its receipt (read again when this visit has none). */
function followStatus(ctx: DepositContext, state: TrackingState, alive: () => boolean, signal: AbortSignal) {
  const { tracking } = state
  const { dispatch } = ctx
  let stop: (() => void) | undefined
  const start = (receipt: ReceiptSummary) => {
    if (!alive()) return
    stop = pollLater({
      key: ['deposit-status', tracking.txHash],
      fetch: () => getDepositStatus(ctx.api, { provider: tracking.provider, receipt }, 'poll'),
      isTerminal: (s) => s.status !== 'pending',
      intervalMs: ctx.pollIntervalMs ?? ctx.config.timings?.pollMs ?? 3_000,
      retryBaseMs: ctx.config.timings?.backoffBaseMs,
      onData: (s) => dispatch({ type: 'TRACK', status: s.status, origin: s.txHashes?.origin, delivered: s.txHashes?.delivered }),
      onError: (error) => dispatch({ type: 'TRACK_ERROR', problem: describeError(error) }),
      onRetrying: () => dispatch({ type: 'WAITING', waiting: true }),
    })
  }
  const known = ctx.receipts.get(tracking.txHash.toLowerCase())
  if (known) start(known)
  else void readReceipt(ctx, tracking, signal).then(start, (error) => alive() && dispatch({ type: 'TRACK_ERROR', problem: describeError(error) }))
  return () => stop?.()
}
