// The connect-wallet sub-machine's I/O (kernel/connectWallet.ts), one module for every flow: the
// wallets that announce themselves (EIP-6963), and eth_requestAccounts on the one chosen. The
// wallet code itself comes in through the seams (discovery, providers, viem's connect, loaded on
// demand), so tests fake them and the kernel imports no wallet/.
import { walletProblemOf } from '../errors/WalletError'
import type { ChosenWallet, ConnectWalletEvent } from './connectWallet'
import type { Effect } from './effects'
import type { Clock, WalletInfo } from './types'

/** `disconnect`: a wallet whose session can end from this side (WalletConnect's). */
type Provider = { request(args: { method: string; params?: unknown }): Promise<unknown>; disconnect?(only?: 'pairedHere'): Promise<void> }

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

/** How long a wallet may take to say which accounts it lets this page see, when one is looked for again. */
const LISTS_MS = 2_000

/** How long a rescan waits for announcements before it reports what came. */
const RESCAN_MS = 400

export function connectWalletEffects(deps: ConnectWalletDeps, dispatch: (event: ConnectWalletEvent) => void) {
  let wallets: WalletInfo[] = []
  let stopListening: (() => void) | undefined
  const watchers = new Set<(found: WalletInfo[]) => void>()
  const listen = () =>
    (stopListening ??= deps.discover((found) => {
      wallets = found
      dispatch({ type: 'WALLETS', wallets })
      for (const watch of watchers) watch(found)
    }))
  return {
    /** Listens for wallets for as long as the flow lives; a step entered later hears those already found. */
    listen: (): Effect => ({
      key: 'discover',
      start: () => {
        const known = stopListening !== undefined
        listen()
        if (known && wallets.length) dispatch({ type: 'WALLETS', wallets })
      },
    }),
    /** Asks the wallets again and reports what came after a moment (none announcing is news too). */
    rescan: (): Effect => ({
      // Its own key: a step that keeps listening (the payout's) looks again after a Disconnect.
      key: 'rescan',
      start: (alive) => {
        listen()
        deps.requestProviders?.()
        const timer = deps.clock.setTimeout(() => alive() && dispatch({ type: 'WALLETS', wallets }), RESCAN_MS)
        return () => deps.clock.clearTimeout(timer)
      },
    }),
    /** Lets go of the wallet connected before, as the buyer asked for another (releaseOf). `only`: only a session this page paired (not one restored, which another tab may use). */
    release: (wallet: ChosenWallet, only?: 'pairedHere'): Effect => releaseOf(deps, wallet, only),
    /** Asks the chosen wallet for its account. */
    connect: (wallet: ChosenWallet): Effect => ({ key: `connect:${wallet.id}`, start: (alive) => void connectTo(deps, wallet, alive, dispatch) }),
    /**
     * The wallet the buyer connected before a round trip that reloaded the page, found again without
     * asking: each wallet that announces itself is asked which accounts it already lets this page
     * see (eth_accounts, never a prompt); the one that lists `account` is connected.
     */
    reconnect: (account: string): Effect => ({
      key: `reconnect:${account.toLowerCase()}`,
      start: (alive) => {
        const tried = new Set<string>()
        // In the page's order (the first wallet that announced itself first), one at a time: where two
        // wallets hold the account, the same one is taken every time, not whichever answers first. A
        // wallet that does not answer in a moment is passed over.
        let queue = Promise.resolve(false)
        const watch = (found: WalletInfo[]) => {
          for (const info of found) {
            if (tried.has(info.id)) continue
            tried.add(info.id)
            queue = queue.then(async (done) => {
              if (done || !alive()) return true
              let timer: unknown
              const yes = await Promise.race([
                lists(deps, { kind: 'injected', ...info }, account),
                new Promise<boolean>((resolve) => (timer = deps.clock.setTimeout(() => resolve(false), LISTS_MS))),
              ])
              // The wallet answered first: its timer goes too (none left behind per wallet asked).
              deps.clock.clearTimeout(timer)
              if (yes && alive()) dispatch({ type: 'RECONNECTED', wallet: { kind: 'injected', ...info }, account })
              return yes
            })
          }
        }
        watchers.add(watch)
        listen()
        watch(wallets)
        return () => watchers.delete(watch)
      },
    }),
    stop: () => stopListening?.(),
  }
}

/**
 * A session that can end from here (WalletConnect's) ends, on the relay and in storage; an injected
 * wallet is asked nothing.
 */
function releaseOf(deps: ConnectWalletDeps, wallet: ChosenWallet, only?: 'pairedHere'): Effect {
  const end = () => deps.providerOf(wallet)?.disconnect?.(only)
  return { key: `release:${wallet.id}`, start: () => void end()?.catch(() => {}) }
}

/** Whether a wallet already lets this page see `account` (eth_accounts asks nothing of the buyer). */
async function lists(deps: ConnectWalletDeps, wallet: ChosenWallet, account: string): Promise<boolean> {
  try {
    const accounts = await deps.providerOf(wallet)?.request({ method: 'eth_accounts' })
    return Array.isArray(accounts) && accounts.some((a) => typeof a === 'string' && a.toLowerCase() === account.toLowerCase())
  } catch {
    return false
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
