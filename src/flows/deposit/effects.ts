// The deposit's I/O: each state the machine enters may start one effect (keyed, so a state
// update inside the same stage does not restart it); leaving the stage cancels it. The effects
// themselves live beside this file, one concern each: connect, quoting, previewQuote, send, and
// tracking (batch, receipt, status).
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { whenChecked } from '../../storage/storedCheck'
import { expiryEffect } from '../../kernel/quote'
import { connect, walletDiscovery } from './connect'
import { type DepositContext, type DepositDeps, depositContext } from './context'
import { type DepositEvent, type DepositState, type Tracking, trackingId } from './machine'
import { previewQuote } from './previewQuote'
import { requestQuote } from './quoting'
import { sendDeposit } from './send'
import { trackingEffects } from './tracking'

export type { DepositDeps }

type QuoteState = Extract<DepositState, { tag: 'quote' }>

export function createDepositEffects(deps: DepositDeps, dispatch: (event: DepositEvent) => void) {
  const ctx = depositContext(deps, dispatch)
  const discovery = walletDiscovery(ctx)

  function effectOf(state: DepositState): Effect | Array<Effect | undefined> | undefined {
    switch (state.tag) {
      case 'discovering':
        return { key: 'discover', start: (alive) => discovery.discover(alive) }
      case 'connecting':
        return { key: `connect:${state.wallet.id}`, start: (alive) => void connect(ctx, state, alive) }
      case 'quoting':
        return { key: `quote:${state.amount}:${state.requote}`, start: (alive) => void requestQuote(ctx, state, alive) }
      case 'quote':
        return quoteEffects(ctx, state)
      case 'tracking':
        return trackingEffects(ctx, state)
      case 'result':
        return { key: `result:${trackingId(state.tracking)}`, start: () => void clearOnceTold(ctx, state.tracking) }
      default:
        return undefined
    }
  }

  const stopAdopting = adoptFromOtherTabs(ctx)
  const runner = createEffectRunner(effectOf)
  return {
    run: runner.run,
    dispose() {
      ctx.gone.abort()
      runner.dispose()
      discovery.stop()
      stopAdopting()
    },
  }
}

/** At the confirm screen: the send once the buyer confirms; else the quote's expiry and its preview. */
function quoteEffects(ctx: DepositContext, state: QuoteState): Effect | Effect[] | undefined {
  if (state.work !== 'idle') return { key: `send:${state.quotedAt}`, start: (alive, signal) => void sendDeposit(ctx, state, alive, signal) }
  // A quote that came expired, or valid for too long to trust: nothing runs; the buyer asks again.
  if (state.stale) return undefined
  const expiry = expiryEffect(state.quotedAt, state.quote.expiresAt, ctx.clock, ctx.dispatch)
  if (state.preview) return [expiry]
  return [expiry, { key: `preview:${state.quotedAt}:${state.previewAttempt ?? 0}`, start: (alive) => void previewQuote(ctx, state, alive) }]
}

/**
 * An ended deposit is no longer kept, once the partner's kit was told of it (report.ts): a page closed
 * before then resumes it, and tells the kit. Only this deposit goes, not one the buyer started since.
 */
async function clearOnceTold(ctx: DepositContext, tracking: Tracking) {
  const report = ctx.reports.get(tracking.txHash)
  if (!report) return ctx.store.clear()
  if (!(await report)) return
  try {
    if (ctx.store.load()?.txHash === tracking.txHash) ctx.store.clear()
  } catch {
    // Its check not here: the record stays, and the next visit ends it again.
  }
}

/** A deposit sent from another tab of this origin: followed here too. */
function adoptFromOtherTabs(ctx: DepositContext): () => void {
  let live = true
  // One read waits at a time (it reads the record as it is then), and none after dispose.
  let cancel = () => {}
  const onStorage = (event: StorageEvent) => {
    if (event.key !== ctx.store.key || !event.newValue) return
    cancel()
    cancel = whenChecked(
      () => {
        const tracking = live ? ctx.store.load() : undefined
        if (tracking) ctx.dispatch({ type: 'ADOPT', tracking })
      },
      ctx.store.ready,
      ctx.store.arrived,
    )
  }
  ctx.target.addEventListener('storage', onStorage)
  return () => {
    live = false
    cancel()
    ctx.target.removeEventListener('storage', onStorage)
  }
}
