// The deposit's I/O: each state the machine enters may start one effect (keyed, so a state
// update inside the same stage does not restart it); leaving the stage cancels it. The effects
// themselves live beside this file, one concern each (the wallet's: kernel/connectWalletEffects.ts): quoting, previewQuote, send, and
// tracking (batch, receipt, status).
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { expiryEffect } from '../../kernel/quote'
import { connectWalletEffects } from '../../kernel/connectWalletEffects'
import { discoverWallets, providerOf } from '../../wallet/eip6963'
import { type DepositContext, type DepositDeps, depositContext } from './context'
import type { WidgetConfig } from '../../config/config'
import { byAddressPart } from './byAddressPart'
import { type ByAddressEvent, type Context, type DepositEvent, type DepositState, trackingId } from './machine'
import { previewQuote } from './previewQuote'
import { requestQuote, sourceOf } from './quoting'
import { sendDeposit } from './send'
import { clearOnceTold } from './ending'
import { adoptFromOtherTabs } from './otherTabs'
import { trackingEffects } from './tracking'
import { carriesNoSignIn } from './walletCheck'
import { offerWalletConnect } from '../../wallet/walletConnectOffer'

export type { DepositDeps }
/** Paying by address, fetched from here (not the first load): DepositFlow.tsx draws it, the machine takes its events. */
export { byAddressPart }

/** The machine's transition for paying by address, once its code is here. */
export const byAddress = (state: DepositState, event: ByAddressEvent, c: Context) => byAddressPart.get()?.transition(state, event, c)

/**
 * Into paying by address, once its code is here: to the link's fixed destination address, if any;
 * else, where the partner's kit settles it at the partner's and credits the buyer, to no address of theirs.
 */
export const startByAddress = (config: WidgetConfig, dispatch: (event: DepositEvent) => void) => {
  const receiver = config.destination?.address
  const kit = config.walletLink === true && !receiver
  return byAddressPart.load().then(() => dispatch({ type: 'BY_ADDRESS', event: { type: 'START', receiver, kit } }))
}

type QuoteState = Extract<DepositState, { tag: 'quote' }>

export function createDepositEffects(deps: DepositDeps, dispatch: (event: DepositEvent) => void) {
  const ctx = depositContext(deps, dispatch)
  const wallet = connectWalletEffects(
    {
      discover: (onChange) => {
        offerWalletConnect(ctx.target, deps.config)
        return discoverWallets(ctx.target, onChange)
      },
      requestProviders: () => ctx.target.dispatchEvent(new Event('eip6963:requestProvider')),
      providerOf: (chosen) => providerOf(chosen.id),
      loadConnect: ctx.loadChainActions,
      clock: ctx.clock,
    },
    (event) => dispatch({ type: 'WALLET', event }),
  )

  function effectOf(state: DepositState): Effect | Array<Effect | undefined> | undefined {
    switch (state.tag) {
      case 'discovering':
        forgetAbandoned(ctx)
        // The wallet the buyer left (Disconnect, another wallet) is let go: a WalletConnect session ends.
        return [wallet.rescan(), state.release ? wallet.release(state.release) : undefined]
      case 'byAddress':
        return state.stage === 'quoting'
          ? { key: `byAddress:${state.amount}`, start: (alive) => void import('./byAddressEffects').then((m) => m.quoteByAddress(ctx, state, alive)) }
          : undefined
      case 'connecting':
        return wallet.connect(state.wallet)
      case 'quoting':
        return [{ key: `quote:${state.amount}:${state.requote}`, start: (alive) => void requestQuote(ctx, state, alive) }, signInEffect(ctx, state)]
      case 'quote':
        return [quoteEffects(ctx, state), signInEffect(ctx, state)].flat()
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
      wallet.stop()
      stopAdopting()
    },
  }
}

/** A watch for a transfer the buyer said they did not send (the quote expired): its record goes. */
function forgetAbandoned(ctx: DepositContext) {
  try {
    const kept = ctx.store.load()
    if (kept?.watch && !kept.txHash) ctx.store.clear()
  } catch {}
}

/**
 * A link without sign-in, where the deposit asks the partner's kit to link the wallet: whether the
 * kit takes this buyer is asked as the price is (one key from the price asked to the price shown,
 * so once), and a 401 is said at the price, before confirming and before any wallet prompt
 * (linkWallet.ts, fetched then). Any other answer: the send asks as always.
 */
function signInEffect(ctx: DepositContext, state: Extract<DepositState, { tag: 'quoting' | 'quote' }>): Effect | undefined {
  if (!carriesNoSignIn(ctx.config) || state.session.noSignIn || ctx.signInAnswered) return undefined
  const { account } = state.session
  const chainId = sourceOf(ctx, state.form).chainId
  return {
    key: `signin:${account}`,
    start: (alive, signal) =>
      void import('./linkWallet')
        .then((m) => m.askSignedIn(ctx, account, chainId, signal))
        .then(
          (signedIn) => {
            if (signedIn === false && alive()) ctx.dispatch({ type: 'NO_SIGN_IN' })
            if (signedIn) ctx.signInAnswered = true
          },
          () => {},
        ),
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
