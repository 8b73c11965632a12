// The identity steps' wallet I/O: the page's wallets (EIP-6963, WalletConnect among them where the
// partner's registry entry offers it) and the one chosen asked for its account, through the same
// connect-wallet effects the deposit and the payout use (kernel/connectWalletEffects.ts). viem's
// connect loads only once a wallet is chosen.
import type { ChainConfig } from '../config/config'
import { connectWallet } from '../kernel/connectWallet'
import { type Effect, createEffectRunner } from '../kernel/effects'
import { connectWalletEffects } from '../kernel/connectWalletEffects'
import type { Clock } from '../kernel/types'
import { discoverWallets, providerOf } from '../wallet/eip6963'
import { offerWalletConnect } from '../wallet/walletConnectOffer'
import type { IdentityEvent, IdentityState } from './machine'

export type IdentityWalletDeps = {
  /** The page the wallets announce themselves in. */
  target: Window
  /** Whose WalletConnect offer (the registry entry's), and the chains a session is asked for. */
  config: { partner?: string; apiBase: string; chains?: ChainConfig[] }
  clock: Clock
}

export function identityWalletEffects(deps: IdentityWalletDeps, dispatch: (event: IdentityEvent) => void) {
  const wallet = connectWalletEffects(
    {
      discover: (onChange) => {
        offerWalletConnect(deps.target, deps.config)
        return discoverWallets(deps.target, onChange)
      },
      requestProviders: () => deps.target.dispatchEvent(new Event('eip6963:requestProvider')),
      providerOf: (chosen) => providerOf(chosen.id),
      loadConnect: () => import('../wallet/chainActions'),
      clock: deps.clock,
    },
    (event) => dispatch({ type: 'WALLET', event }),
  )
  return {
    /** At the wallet step: the wallets listened for, the one chosen asked for its account. After it: the session that gave the address ended. */
    effectOf(state: IdentityState): Array<Effect | undefined> {
      // Only a session paired at this step: one restored from storage may be another tab's deposit or payout.
      if (state.tag === 'identity' && state.release) return [wallet.release(state.release, 'pairedHere')]
      if (state.tag !== 'wallet') return []
      return [
        // Looking (again): what announced itself after a moment, none being news too.
        state.connection.tag === 'discovering' ? wallet.rescan() : wallet.listen(),
        state.connection.tag === 'connecting' ? wallet.connect(state.connection.wallet) : undefined,
      ]
    },
    stop: wallet.stop,
  }
}

/**
 * A bank flow's effects runner: its `effectOf`, the identity steps' wallet stopped with it, and the
 * connect-wallet sub-machine handed to the flow's transition (identity/machine.ts: IdentityContext).
 */
export function identityFlowRunner<S>(effectOf: Parameters<typeof createEffectRunner<S>>[0], wallet: { stop(): void } | undefined) {
  const runner = createEffectRunner(effectOf)
  return {
    run: runner.run,
    connectWallet,
    dispose() {
      runner.dispose()
      wallet?.stop()
    },
  }
}
