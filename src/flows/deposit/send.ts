// Sending the deposit: checked once more before every prompt, never retried on its own. The buyer
// confirms; this asks the wallet (a switch of network, the approval, the deposit, or one batch).
// The checks are in sendChecks.ts, the prompts in sendCalls.ts.
import type { Hex } from 'viem'
import { chainOf } from '../../config/config'
import { walletProblemOf } from '../../errors/WalletError'
import { walk } from '../../errors/WidgetError'
import { exclusive } from '../../kernel/tabLock'
import { providerOf } from '../../wallet/eip6963'
import type { DepositContext } from './context'
import type { DepositEvent, Notice, Tracking } from './machine'
import { callsOf } from './previewQuote'
import { requestOf } from './quoting'
import { readyToSend } from './sendChecks'
import { sendAsBatch, sendInTurn } from './sendCalls'
import type { QuoteState, Sending } from './sending'

/** Two tabs at the same confirm screen: only one sends. The lock is named after this partner's record (another partner's tab neither holds it nor learns of it). */
export async function sendDeposit(ctx: DepositContext, state: QuoteState, alive: () => boolean, signal: AbortSignal) {
  const result = await exclusive(`${ctx.store.key}:send`, () => send(ctx, state, alive, signal))
  if (result === 'elsewhere' && alive()) ctx.dispatch({ type: 'BLOCKED', notice: { kind: 'elsewhere' } })
}

async function send(ctx: DepositContext, state: QuoteState, alive: () => boolean, signal: AbortSignal) {
  const step = (event: DepositEvent) => alive() && ctx.dispatch(event)
  // Another tab may have sent and let go of the lock before this one asked for it, its storage
  // event not here yet: a deposit already kept is followed here, never sent a second time.
  const kept = await keptDeposit(ctx)
  if (kept) return step({ type: 'ADOPT', tracking: kept })
  const provider = providerOf(state.session.wallet.id)
  if (!provider) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'disconnected' } })
  try {
    const s: Sending = {
      ctx,
      state,
      alive,
      signal,
      step,
      w: await ctx.loadChainActions(),
      provider,
      chain: chainOf(ctx.config, state.quote.transaction.chainId),
      account: state.session.account as Hex,
      request: requestOf(ctx, state.form, state.session, state.amount),
    }
    const reader = await readyToSend(s)
    if (!reader) return
    const { calls, approve } = await callsOf(s.w, reader, state.quote, s.account)
    // One confirmation where the wallet can batch (EIP-5792): the approval and the deposit together.
    if (approve && (await s.w.canBatch(provider, s.account, s.chain.id))) return await sendAsBatch(s, calls)
    await sendInTurn(s, reader, calls, approve)
  } catch (error) {
    if (alive()) ctx.dispatch({ type: 'BLOCKED', notice: noticeOf(error) })
  }
}

/**
 * The deposit this origin keeps (another tab's), once its check is here. A check that cannot be
 * fetched (offline) leaves the lock alone to keep tabs apart: the send needs the wallet code,
 * fetched the same way, so it would not go out either.
 */
async function keptDeposit(ctx: DepositContext): Promise<Tracking | undefined> {
  try {
    await ctx.store.ready?.()
    return ctx.store.load()
  } catch {
    return undefined
  }
}

function noticeOf(error: unknown): Notice {
  const mismatch = walk(error, (e) => (e as Error | null)?.name === 'ChainMismatchError')
  return mismatch ? { kind: 'wrongChain' } : { kind: 'wallet', problem: walletProblemOf(error) }
}
