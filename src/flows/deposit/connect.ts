// Finding the buyer's wallets (EIP-6963) and connecting the one chosen.
import { walletProblemOf } from '../../errors/WalletError'
import type { WalletInfo } from '../../kernel/types'
import { discoverWallets, providerOf } from '../../wallet/eip6963'
import type { DepositContext } from './context'
import type { DepositState } from './machine'

/** Listens for wallets for as long as the flow lives; each rescan asks them again and reports after 400 ms. */
export function walletDiscovery(ctx: DepositContext) {
  let wallets: WalletInfo[] = []
  let stopListening: (() => void) | undefined
  return {
    discover(alive: () => boolean) {
      stopListening ??= discoverWallets(ctx.target, (found) => {
        wallets = found
        ctx.dispatch({ type: 'WALLETS', wallets })
      })
      ctx.target.dispatchEvent(new Event('eip6963:requestProvider'))
      const timer = ctx.clock.setTimeout(() => alive() && ctx.dispatch({ type: 'WALLETS', wallets }), 400)
      return () => ctx.clock.clearTimeout(timer)
    },
    stop: () => stopListening?.(),
  }
}

export async function connect(ctx: DepositContext, state: Extract<DepositState, { tag: 'connecting' }>, alive: () => boolean) {
  const provider = providerOf(state.wallet.id)
  try {
    if (!provider) throw Object.assign(new Error('wallet gone'), { code: 4900 })
    const actions = await ctx.loadChainActions()
    const account = await actions.connect(provider)
    if (!alive()) return
    ctx.dispatch(account ? { type: 'CONNECTED', account } : { type: 'CONNECT_FAILED', problem: 'noAccount' })
  } catch (error) {
    if (alive()) ctx.dispatch({ type: 'CONNECT_FAILED', problem: walletProblemOf(error) })
  }
}
