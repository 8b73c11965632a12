// What the connected wallet holds of the deposit's source token, read only once a quote failed as
// no_route, so the buyer learns when the amount is over it (depositProblems.ts picks the words). A
// balance that cannot be read (no provider, another chain with no RPC of ours, the read failing) is
// undefined: nothing is decided on a balance we cannot see.
import type { Hex } from 'viem'
import { chainOf, type WidgetConfig } from '../../config/config'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import { providerOf } from '../../wallet/eip6963'
import type { DepositContext } from './context'
import type { Session } from './machine'
import { isNativeToken } from './preview'

type Source = WidgetConfig['sources'][number]

/** The balance, as a decimal string of the source token, when it is below `amount`; else undefined. */
export async function heldBelow(ctx: DepositContext, source: Source, session: Session, amount: string): Promise<string | undefined> {
  try {
    const chain = chainOf(ctx.config, source.chainId)
    const provider = providerOf(session.wallet.id)
    const w = await ctx.loadChainActions()
    if (!chain.rpcUrl && (!provider || (await w.currentChainId(provider)) !== chain.id)) return undefined
    const reader = w.readClient(chain, provider)
    const account = session.account as Hex
    const held = isNativeToken(source.token) ? await w.nativeBalance(reader, account) : await w.tokenBalance(reader, source.token as Hex, account)
    return held < toBaseUnits(amount, source.decimals) ? fromBaseUnits(held, source.decimals) : undefined
  } catch {
    return undefined
  }
}
