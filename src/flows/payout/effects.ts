// The payout's I/O: each stage the machine enters may start effects (keyed: a state update inside
// a stage does not restart them); leaving the stage cancels them. The effects live beside this
// file, one concern each (the wallet's: kernel/connectWalletEffects.ts): quoting, creating, sending (and its checks), resuming,
// tracking, forgetting. The wallet code (viem) is loaded only once the funding step needs it.
import { identityEffect } from '../../identity/effects'
import { isIdentityState } from '../../identity/machine'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { expiryEffect } from '../../kernel/quote'
import { connectWalletEffects } from '../../kernel/connectWalletEffects'
import type { ConnectWalletState } from '../../kernel/connectWallet'
import { type PayoutContext, type PayoutDeps, type StateOf, payoutContext } from './context'
import { forget } from './forgetting'
import { fund, keepOffer } from './sending'
import type { PayoutEvent, PayoutState } from './state'
import { loadLimits, requestQuote } from './quoting'
import { verify } from './resuming'
import { keepResult, trackingEffects } from './tracking'
import { watchFunding } from './watching'
import { offerWalletConnect } from '../../wallet/walletConnectOffer'

export type { ChainActions, PayoutDeps } from './context'
// What the host page hears: with the effects, not with the form (Payouts.tsx's lazyObserver).
export { payoutEvents } from './hostEvents'

export function createPayoutEffects(deps: PayoutDeps, dispatch: (event: PayoutEvent) => void) {
  const ctx = payoutContext(deps, dispatch)
  // The funding wallet's discovery and connection (kernel/connectWalletEffects.ts), its events under FUNDING.
  const wallet = connectWalletEffects(
    {
      discover: (onChange) => {
        offerWalletConnect(globalThis.window, deps.config)
        return deps.discover(onChange)
      },
      providerOf: (chosen) => deps.providerOf(chosen.id),
      loadConnect: deps.loadChainActions,
      clock: deps.clock,
    },
    (event) => ctx.funding({ type: 'WALLET', event }),
  )

  // The wallet the buyer let go of (Disconnect, Connect again): a WalletConnect session ends; the wallets are asked again.
  const lettingGo = (c: ConnectWalletState) => (c.tag === 'discovering' && c.release ? [wallet.release(c.release), wallet.rescan()] : [])

  function effectOf(state: PayoutState): Effect | Array<Effect | undefined> | undefined {
    if (isIdentityState(state)) {
      const { pending } = state
      // Kept in this tab before the identity provider is opened (a full navigation), taken on the way back.
      return [
        identityEffect(state, deps.identity, (event) => dispatch({ type: 'IDENTITY', event })),
        pending
          ? { key: `pending:${JSON.stringify({ ...pending, funder: pending.funder?.sender, limits: undefined })}`, start: () => deps.pending.put(pending) }
          : undefined,
      ]
    }
    switch (state.tag) {
      case 'form':
        return [
          state.limits ? undefined : { key: 'limits', start: (alive) => void loadLimits(ctx, alive) },
          // "Not you?": the stored buyer and every bank record of this device go.
          state.forgetBuyer ? { key: 'forget-account', start: () => deps.identity.accounts.forget() } : undefined,
          // Started over before any transfer: that payout and its reference are forgotten, never resumed nor reused.
          state.abandoned ? { key: `abandon:${state.abandoned}`, start: () => forget(ctx, state.abandoned as string) } : undefined,
        ]
      case 'quoting':
        return { key: `quote:${JSON.stringify(state.ask)}:${state.requote}`, start: (alive, signal) => void requestQuote(ctx, state, alive, signal) }
      case 'quote':
        return state.stale ? undefined : expiryEffect(state.quotedAt, state.quote.expiresAt, ctx.clock, dispatch)
      case 'connect':
        return [
          wallet.listen(),
          ...lettingGo(state.connection),
          expiryEffect(state.quotedAt, state.quote.expiresAt, ctx.clock, dispatch),
          state.connection.tag === 'connecting' ? wallet.connect(state.connection.wallet) : undefined,
        ]
      case 'beneficiary':
        return [
          // Past the identity steps: what they kept in this tab is no longer needed.
          { key: 'pending-clear', start: () => deps.pending.clear() },
          state.work === 'creating'
            ? { key: `create:${state.quotedAt}`, start: (alive) => void deps.calls.create(ctx, state, alive) }
            : expiryEffect(state.quotedAt, state.quote.expiresAt, ctx.clock, dispatch),
        ]
      case 'card':
        return [
          { key: 'pending-clear', start: () => deps.pending.clear() },
          state.work === 'opening' ? { key: `open:${state.quotedAt}`, start: (alive) => void deps.calls.openCard?.(ctx, state, alive) } : undefined,
          state.work === 'creating'
            ? { key: `create:${state.quotedAt}:${state.cardSession}`, start: (alive) => void deps.calls.create(ctx, state, alive) }
            : undefined,
          state.work === 'idle' ? expiryEffect(state.quotedAt, state.quote.expiresAt, ctx.clock, dispatch) : undefined,
        ]
      case 'funding':
        return [
          wallet.listen(),
          ...lettingGo(state.connection),
          state.connection.tag === 'connecting' ? wallet.connect(state.connection.wallet) : undefined,
          // The buyer connected this payout's wallet before a round trip (identity, the card page): found
          // again, not asked again. Not once the buyer chose to pay from elsewhere: they pick a wallet.
          state.sender || state.record.offeredAt !== undefined ? undefined : wallet.reconnect(state.record.wallet),
          ...fundingEffects(ctx, state),
        ]
      case 'tracking':
        return trackingEffects(ctx, state)
      case 'result':
        return { key: `result:${state.record.id}`, start: () => keepResult(ctx, state) }
    }
  }

  const runner = createEffectRunner(effectOf)
  return {
    run: runner.run,
    dispose() {
      runner.dispose()
      wallet.stop()
    },
  }
}

/** At the funding step: the send, and the re-check after an unanswered prompt. */
function fundingEffects(ctx: PayoutContext, state: StateOf<'funding'>): Array<Effect | undefined> {
  return [
    // One effect from the buyer's click to the hash: its own WORK reports (switching, sending) do not restart it.
    state.work !== 'idle' && state.work !== 'connecting' ? { key: `send:${state.record.id}`, start: (alive) => void fund(ctx, state, alive) } : undefined,
    // Nothing asked of a wallet yet (connected or not): a transfer made another way (the address copied
    // into another wallet or an exchange) is seen and followed. With a wallet connected, a failed check
    // before sending waits for the buyer instead (nothing retried on its own).
    state.work === 'idle' && state.record.promptedAt === undefined && (!state.sender || !state.problem)
      ? { key: `watch:${state.record.id}`, start: () => watchFunding(ctx, state) }
      : undefined,
    // Offered by address from the funding step: kept, so a reload and a wallet connected later know it.
    state.record.offeredAt !== undefined
      ? { key: `offered:${state.record.id}:${state.record.offeredAt}`, start: (alive) => keepOffer(ctx, state, alive) }
      : undefined,
    // The wallet was asked and never answered (a reload): what arrived is read before the buyer may choose anything.
    state.verify === 'running' ? { key: `verify:${state.record.id}`, start: (alive) => void verify(ctx, state, alive) } : undefined,
  ]
}
