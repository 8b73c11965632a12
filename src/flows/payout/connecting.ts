// The funding step's wallets: the ones that announce themselves (EIP-6963), and the one the buyer connects.
import { walletProblemOf } from '../../errors/WalletError'
import type { PayoutContext, StateOf } from './context'

/** Listens once for the wallets, until the flow goes. */
export function walletDiscovery(ctx: PayoutContext) {
  let stop: (() => void) | undefined
  return {
    discover() {
      stop ??= ctx.discover((wallets) => ctx.funding({ type: 'WALLETS', wallets }))
    },
    stop: () => stop?.(),
  }
}

export async function connect(ctx: PayoutContext, state: StateOf<'funding' | 'connect'>, alive: () => boolean) {
  const { funding: dispatch } = ctx
  const provider = state.wallet && ctx.providerOf(state.wallet.id)
  try {
    if (!provider) throw Object.assign(new Error('wallet gone'), { code: 4900 })
    const w = await ctx.loadChainActions()
    const sender = await w.connect(provider)
    if (!alive()) return
    dispatch(sender ? { type: 'CONNECTED', sender } : { type: 'BLOCKED', problem: { kind: 'noAccount' } })
  } catch (error) {
    if (alive()) dispatch({ type: 'BLOCKED', problem: { kind: 'wallet', problem: walletProblemOf(error) } })
  }
}
