// Everything the funding transfer is held to before the wallet is asked, the first time too: the
// transfer itself, an address never sent to, the service still waiting, the payout's chain, the
// buyer's balances, the deadline. Any of them stops the send before the prompt.
import type { Hex } from 'viem'
import type { ChainConfig } from '../../config/config'
import { ResponseShapeError } from '../../errors/ApiError'
import { payoutFunded } from '../../lib/status/payout'
import type { Eip1193Provider } from '../../wallet/eip6963'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import type { ChainActions, PayoutContext } from './context'
import type { FundingProblem } from './base'
import type { PayoutRecord } from './record'
import { type Transfer, checkTransfer } from './transfer'

/** One click's send: the payout, who sends it, through which wallet, on which chain, the one transfer. */
export type Attempt = {
  record: PayoutRecord
  sender: Hex
  provider: Eip1193Provider
  chain: ChainConfig
  tx: Transfer
  alive: () => boolean
  block: (problem: FundingProblem) => undefined
}

/** The transaction is exactly the plain transfer of this payout, from this sender (else blocked). */
export function transferHolds(ctx: PayoutContext, a: Attempt): boolean {
  const verdict = checkTransfer(a.tx, a.record, ctx.source, a.sender)
  if (!verdict.ok) a.block({ kind: 'refused', rule: verdict.rule })
  return verdict.ok
}

/** The wallet code once every check passed; undefined once one stopped the send (said already). */
export async function checkBeforePrompt(ctx: PayoutContext, a: Attempt): Promise<ChainActions | undefined> {
  const { record, provider, chain, sender, alive, block } = a
  const { source, funding: dispatch } = ctx
  const funded = () => void (alive() && dispatch({ type: 'ALREADY_FUNDED' }))
  if (!transferHolds(ctx, a)) return
  // One address serves one payout: never a second transfer to it, from this browser or any.
  if (ctx.spent.has(record.depositAddress)) return funded()
  const status = await ctx.calls.status(ctx, record.id)
  if (!alive()) return
  // Only this payout's own record speaks for it.
  if (status.id !== record.id) throw new ResponseShapeError('status', 'id', 'the status of another payout')
  if (payoutFunded(status, record.id)) return funded()
  const w = await ctx.loadChainActions()
  if (!alive()) return
  // The wallet is on the payout's chain before the prompt (a switch is asked for, never assumed).
  if ((await w.currentChainId(provider)) !== chain.id) {
    if (alive()) dispatch({ type: 'WORK', work: 'switching' })
    const switched = await w.ensureChain(provider, chain).catch(() => false)
    if (!switched) return block({ kind: 'wrongChain' })
  }
  if (!alive()) return
  const reader = w.readClient(chain, provider)
  // Before every prompt, the first too: another device or storage may have funded this payout
  // (the same signed reference gives the same payout back) before the service saw it. Its
  // address's token balance, not its Transfer logs: the service cannot sweep what it has not
  // seen, and a log range from the payout's creation (a block no other device knows) is one
  // that public RPCs refuse. Read on the payout's chain (the wallet is on it now).
  if ((await w.tokenBalance(reader, source.token as Hex, record.depositAddress as Hex)) > 0n) return funded()
  const balance = await w.tokenBalance(reader, source.token as Hex, sender)
  if (balance < toBaseUnits(record.depositAmount, source.decimals)) return block({ kind: 'insufficient', balance: fromBaseUnits(balance, source.decimals) })
  if ((await w.nativeBalance(reader, sender)) === 0n) return block({ kind: 'insufficientGas' })
  if (!alive()) return
  if (Date.parse(record.expiresAt) <= ctx.clock.now()) return block({ kind: 'expired' })
  // Checked again right before sending: the chain (chainActions.send asks the wallet once more) and the transfer.
  if ((await w.currentChainId(provider)) !== chain.id) return block({ kind: 'wrongChain' })
  if (!transferHolds(ctx, a) || !alive()) return
  return w
}
