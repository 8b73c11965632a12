// Before the wallet opens: the approval and the deposit run on the source chain as the buyer, and
// the confirm screen shows what leaves the wallet.
import type { Client, Hex } from 'viem'
import type { DepositQuote } from '../../api/schemas'
import { chainOf } from '../../config/config'
import { toBaseUnits } from '../../lib/decimal'
import { providerOf } from '../../wallet/eip6963'
import type { ChainActions, DepositContext } from './context'
import type { DepositState, Preview } from './machine'
import { type Expected, isNativeToken, judgeOutflow, previewOf } from './preview'
import { reject, requestOf, sourceOf } from './quoting'

type QuoteState = Extract<DepositState, { tag: 'quote' }>

function expectedOf(ctx: DepositContext, state: QuoteState): Expected {
  const source = sourceOf(ctx, state.form)
  const chain = chainOf(ctx.config, state.quote.transaction.chainId)
  return {
    token: source.token,
    amountIn: toBaseUnits(state.quote.amountIn, source.decimals),
    decimals: source.decimals,
    symbol: source.symbol,
    native: isNativeToken(source.token),
    value: BigInt(state.quote.transaction.value),
    feeSymbol: chain.nativeSymbol ?? 'ETH',
    spender: state.quote.approval?.spender,
  }
}

/** The calls the wallet will be asked for: the approval when the allowance is short, then the deposit. */
export async function callsOf(w: ChainActions, reader: Client, quote: DepositQuote, account: Hex) {
  const deposit = { to: quote.transaction.to as Hex, data: quote.transaction.data as Hex, value: BigInt(quote.transaction.value) }
  const approval = quote.approval
  if (!approval) return { calls: [deposit], approve: undefined }
  const needed = BigInt(approval.amount)
  const current = await w.allowance(reader, approval.token as Hex, account, approval.spender as Hex)
  if (current >= needed) return { calls: [deposit], approve: undefined }
  const approve = { to: approval.token as Hex, data: w.approveData(approval.spender as Hex, needed), value: 0n }
  return { calls: [approve, deposit], approve }
}

/**
 * Anything but amountIn of the source token (and gas) leaving the wallet refuses the quote, as the
 * guard does; a revert says why. The chain that cannot be asked (network trouble, an odd answer)
 * makes the preview 'unavailable': nothing is sent unjudged, the buyer may try again.
 */
export async function previewQuote(ctx: DepositContext, state: QuoteState, alive: () => boolean) {
  const { quote, session } = state
  const chain = chainOf(ctx.config, quote.transaction.chainId)
  const provider = providerOf(session.wallet.id)
  const account = session.account as Hex
  const expected = expectedOf(ctx, state)
  const done = (preview: Preview) => alive() && ctx.dispatch({ type: 'PREVIEW', preview })
  try {
    const w = await ctx.loadChainActions()
    // Reads through the wallet only when it is on the source chain already (no prompt to switch here).
    if (!chain.rpcUrl && (!provider || (await w.currentChainId(provider)) !== chain.id)) return done({ kind: 'unavailable' })
    const reader = w.readClient(chain, provider)
    // A balance too low would only revert: the send says it in the buyer's words instead (and
    // runs this preview again, should the balance be enough by then).
    if (!expected.native && (await w.tokenBalance(reader, expected.token as Hex, account)) < expected.amountIn) return done({ kind: 'short' })
    const { calls } = await callsOf(w, reader, quote, account)
    const simulated = await w.simulate(reader, account, calls)
    if (!alive()) return
    if (simulated.kind === 'reverted') return reject(ctx, quote, { rule: 'simulation.revert', reason: simulated.reason }, alive)
    const fee = simulated.gasUsed * simulated.gasPrice
    // No eth_simulateV1: nothing judged what leaves the wallet. Only a quote whose every call the
    // guard understands (a plain transfer of amountIn, the Depositor's deposit) may be sent.
    if (simulated.kind === 'estimated')
      return done(previewOf(expected, fee, w.understood(requestOf(ctx, state.form, session, state.amount), quote, ctx.config)))
    const verdict = judgeOutflow(simulated.changes, expected, fee)
    if (verdict.ok) done(verdict.preview)
    else reject(ctx, quote, verdict.rejection, alive)
  } catch {
    done({ kind: 'unavailable' })
  }
}
