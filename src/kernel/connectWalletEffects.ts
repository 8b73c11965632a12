// The connect-wallet sub-machine's I/O (kernel/connectWallet.ts), one module for every flow: the
// wallets that announce themselves (EIP-6963), and eth_requestAccounts on the one chosen. The
// wallet code itself comes in through the seams (discovery, providers, viem's connect, loaded on
// demand), so tests fake them and the kernel imports no wallet/.
import { walletProblemOf } from '../errors/WalletError'
import type { ChosenWallet, ConnectWalletEvent } from './connectWallet'
import type { Effect } from './effects'
import type { Clock, WalletInfo } from './types'

type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown> }

export type ConnectWalletDeps = {
  /** Listens for announcements (and asks once); calls back with the growing list; returns the way to stop. */
  discover: (onChange: (wallets: WalletInfo[]) => void) => () => void
  /** Asks the page's wallets to announce themselves again. */
  requestProviders?: () => void
  /** The provider of a chosen wallet (an injected one: by its EIP-6963 id). */
  providerOf: (wallet: ChosenWallet) => Provider | undefined
  /** viem's connect (eth_requestAccounts), loaded once a wallet is chosen. */
  loadConnect: () => Promise<{ connect(provider: never): Promise<string | undefined> }>
  clock: Clock
}

/** How long a rescan waits for announcements before it reports what came. */
const RESCAN_MS = 400

export function connectWalletEffects(deps: ConnectWalletDeps, dispatch: (event: ConnectWalletEvent) => void) {
  let wallets: WalletInfo[] = []
  let stopListening: (() => void) | undefined
  const listen = () =>
    (stopListening ??= deps.discover((found) => {
      wallets = found
      dispatch({ type: 'WALLETS', wallets })
    }))
  return {
    /** Listens for wallets for as long as the flow lives. */
    listen: (): Effect => ({ key: 'discover', start: () => void listen() }),
    /** Asks the wallets again and reports what came after a moment (none announcing is news too). */
    rescan: (): Effect => ({
      key: 'discover',
      start: (alive) => {
        listen()
        deps.requestProviders?.()
        const timer = deps.clock.setTimeout(() => alive() && dispatch({ type: 'WALLETS', wallets }), RESCAN_MS)
        return () => deps.clock.clearTimeout(timer)
      },
    }),
    /** Asks the chosen wallet for its account. */
    connect: (wallet: ChosenWallet): Effect => ({ key: `connect:${wallet.id}`, start: (alive) => void connectTo(deps, wallet, alive, dispatch) }),
    stop: () => stopListening?.(),
  }
}

async function connectTo(deps: ConnectWalletDeps, wallet: ChosenWallet, alive: () => boolean, dispatch: (event: ConnectWalletEvent) => void) {
  const provider = deps.providerOf(wallet)
  try {
    if (!provider) throw Object.assign(new Error('wallet gone'), { code: 4900 })
    const { connect } = await deps.loadConnect()
    const account = await connect(provider as never)
    if (!alive()) return
    dispatch(account ? { type: 'CONNECTED', account } : { type: 'REFUSED', problem: 'noAccount' })
  } catch (error) {
    if (alive()) dispatch({ type: 'REFUSED', problem: walletProblemOf(error) })
  }
}
