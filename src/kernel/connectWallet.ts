// The connect-wallet sub-machine every flow that needs the buyer's wallet composes (the deposit,
// the payout's connect and funding steps, the identity steps' wallet): wallets found (EIP-6963), one
// chosen, its account asked for, and how that ended. One set of events, taken by each composer
// under its own name (`{ type: 'WALLET', event }`). Its I/O is kernel/connectWalletEffects.ts. Pure.
import type { WalletInfo, WalletProblem } from './types'

/**
 * The wallet the buyer chose: one that announced itself in the page (EIP-6963). WalletConnect
 * comes as one more kind here (`| { kind: 'walletConnect'; … }`, its provider in wallet/walletConnect/),
 * and as one more branch of connectWalletEffects' `providerOf`.
 */
export type ChosenWallet = { kind: 'injected' } & WalletInfo

export { isWalletConnect } from './types'

/** Why no account came: the wallet refused (or is gone), or it answered with no account. */
export type ConnectProblem = WalletProblem | 'noAccount'

/**
 * `discovering`: asking the page's wallets to announce themselves (`release`: the wallet connected
 * before, let go as the buyer asked for another: a WalletConnect session ends, on the relay too). `wallets`: the buyer chooses
 * (with `problem`: the last choice was refused). `connecting`: the chosen wallet is asked for its account.
 */
export type ConnectWalletState =
  | { tag: 'discovering'; release?: ChosenWallet }
  | { tag: 'wallets'; wallets: WalletInfo[]; problem?: ConnectProblem }
  | { tag: 'connecting'; wallets: WalletInfo[]; wallet: ChosenWallet }

export type ConnectWalletEvent =
  /** The wallets announced so far. */
  | { type: 'WALLETS'; wallets: WalletInfo[] }
  /** Ask the wallets to announce themselves again. */
  | { type: 'RESCAN' }
  | { type: 'CHOOSE'; wallet: ChosenWallet }
  | { type: 'CONNECTED'; account: string }
  /**
   * A wallet of the page already lists the account this step expects (eth_accounts, no prompt):
   * the buyer connected it before a round trip that reloaded the page, and is not asked again.
   */
  | { type: 'RECONNECTED'; wallet: ChosenWallet; account: string }
  /** The wallet refused, is gone, or named no account. */
  | { type: 'REFUSED'; problem: ConnectProblem }
  /** Stop waiting for the chosen wallet: back to the choice. */
  | { type: 'BACK' }
  /** Another wallet, once one is connected: handled by the composer, which starts over with `disconnected`. */
  | { type: 'DISCONNECT' }

/** How it ends: the wallet chosen and its account. */
export type ConnectWalletExit = { tag: 'connected'; wallet: ChosenWallet; account: string }

/** Where it starts, and where a composer goes back to once the buyer wants another wallet (`release`: the one connected). */
export const disconnected = (release?: ChosenWallet): ConnectWalletState => (release ? { tag: 'discovering', release } : { tag: 'discovering' })

export const isConnectWalletState = (state: { tag: string }): state is ConnectWalletState =>
  state.tag === 'discovering' || state.tag === 'wallets' || state.tag === 'connecting'

export function connectWallet(state: ConnectWalletState, event: ConnectWalletEvent): ConnectWalletState | ConnectWalletExit {
  if (state.tag === 'connecting') {
    switch (event.type) {
      case 'CONNECTED':
        return { tag: 'connected', wallet: state.wallet, account: event.account }
      case 'REFUSED':
        return { tag: 'wallets', wallets: state.wallets, problem: event.problem }
      case 'BACK':
        return { tag: 'wallets', wallets: state.wallets }
      default:
        return state
    }
  }
  switch (event.type) {
    case 'WALLETS':
      return { tag: 'wallets', wallets: event.wallets, problem: state.tag === 'wallets' ? state.problem : undefined }
    case 'RESCAN':
      return disconnected()
    case 'RECONNECTED':
      return { tag: 'connected', wallet: event.wallet, account: event.account }
    case 'CHOOSE':
      return state.tag === 'wallets' ? { tag: 'connecting', wallets: state.wallets, wallet: event.wallet } : state
    default:
      return state
  }
}
