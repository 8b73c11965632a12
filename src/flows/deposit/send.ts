// Sending the deposit: checked once more before every prompt, never retried on its own. The buyer
// confirms; this asks the wallet (a switch of network, the approval, the deposit, or one batch).
import type { Client, Hex } from 'viem'
import type { DepositQuoteRequest } from '../../api/schemas'
import { type ChainConfig, chainOf } from '../../config/config'
import { walletProblemOf } from '../../errors/WalletError'
import { walk } from '../../errors/WidgetError'
import { fromBaseUnits, toBaseUnits } from '../../lib/decimal'
import { exclusive } from '../../kernel/tabLock'
import type { Call } from '../../wallet/chainActions'
import { type Eip1193Provider, providerOf } from '../../wallet/eip6963'
import type { ChainActions, DepositContext } from './context'
import type { DepositEvent, DepositState, Notice, Tracking } from './machine'
import { isNativeToken } from './preview'
import { callsOf } from './previewQuote'
import { guard, requestOf, sourceOf } from './quoting'

type QuoteState = Extract<DepositState, { tag: 'quote' }>

/** One send under way: what it sends, where, as whom, and how it tells the machine (while alive). */
type Sending = {
  ctx: DepositContext
  state: QuoteState
  alive: () => boolean
  /** Aborted when the widget goes: the chain's reads and the approval's receipt wait stop. */
  signal: AbortSignal
  step: (event: DepositEvent) => void
  w: ChainActions
  provider: Eip1193Provider
  chain: ChainConfig
  account: Hex
  request: DepositQuoteRequest
}

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

/** The checks before the first prompt; the chain's reader when the deposit may go on. */
async function readyToSend(s: Sending): Promise<Client | undefined> {
  const { ctx, state, w, provider, chain, account, step } = s
  const { quote } = state
  // Once more before the first prompt (a network switch is one): the quote must still be the one checked.
  if (!guard(ctx, w, quote, s.request, s.alive)) return
  if ((await w.currentChainId(provider)) !== chain.id) {
    step({ type: 'WORK', work: 'switching' })
    if (!(await w.ensureChain(provider, chain))) return void step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
  }
  if (!s.alive()) return
  step({ type: 'WORK', work: 'checking' })
  const reader = w.readClient(chain, provider, s.signal)
  const source = sourceOf(ctx, state.form)
  // A native source has no token contract to ask: its balance is the account's own.
  const balance = isNativeToken(source.token) ? await w.nativeBalance(reader, account) : await w.tokenBalance(reader, source.token as Hex, account)
  if (balance < toBaseUnits(quote.amountIn, source.decimals)) {
    return void step({ type: 'BLOCKED', notice: { kind: 'insufficient', balance: fromBaseUnits(balance, source.decimals) } })
  }
  // The preview said only "balance too low": with enough now, it runs (and judges) first.
  if (!(state.preview?.kind === 'ready' && state.preview.safe)) return void step({ type: 'RETRY_PREVIEW' })
  const gas = await w.nativeBalance(reader, account)
  if (gas === 0n || gas < BigInt(quote.transaction.value)) return void step({ type: 'BLOCKED', notice: { kind: 'insufficientGas' } })
  if (ctx.config.partnerBase && !(await linked(s))) return
  return reader
}

/** The wallet proven the buyer's to the partner's kit, before its first deposit from it (linkWallet.ts, fetched then). */
async function linked(s: Sending): Promise<boolean> {
  const { linkWallet } = await import('./linkWallet')
  const notice = await linkWallet(s.ctx, s.provider, s.account, s.chain.id, s.step, s.signal)
  if (notice) s.step({ type: 'BLOCKED', notice })
  return !notice && s.alive()
}

/** Right before each prompt: the quote has not expired, the wallet is still on the chain, the guard still agrees. */
async function stillValid(s: Sending): Promise<boolean> {
  if (!s.alive()) return false
  if (Date.parse(s.state.quote.expiresAt) <= s.ctx.clock.now()) {
    // Back to idle, then priced again: the new price is shown, never sent under the buyer.
    s.step({ type: 'BLOCKED' })
    s.step({ type: 'EXPIRED' })
    return false
  }
  // The wallet may have been switched meanwhile: check once more before sending.
  if ((await s.w.currentChainId(s.provider)) !== s.chain.id) {
    s.step({ type: 'BLOCKED', notice: { kind: 'wrongChain' } })
    return false
  }
  return guard(s.ctx, s.w, s.state.quote, s.request, s.alive)
}

async function sendAsBatch(s: Sending, calls: Call[]) {
  if (!(await stillValid(s))) return
  s.step({ type: 'WORK', work: 'batching' })
  const callsId = await s.w.sendBatch(s.provider, s.chain, s.account, calls)
  const tracking = trackingOf(s, '', callsId)
  // Persisted like a hash: a reload follows the batch, with no second prompt.
  s.ctx.store.save(tracking)
  s.ctx.dispatch({ type: 'SENT', tracking })
}

/** The approval (when the allowance is short) and its receipt, then the deposit. */
async function sendInTurn(s: Sending, reader: Client, calls: Call[], approve: Call | undefined) {
  const { ctx, w, provider, chain, account, step } = s
  if (approve) {
    if (!(await stillValid(s))) return
    step({ type: 'WORK', work: 'approving' })
    const hash = await w.send(provider, chain, account, approve)
    step({ type: 'WORK', work: 'approvalConfirming', approvalHash: hash })
    const receipt = await w.waitReceipt(reader, hash, () => {}, undefined, s.signal)
    if (!receipt.success) return step({ type: 'BLOCKED', notice: { kind: 'wallet', problem: 'unknown' } })
  }
  if (!(await stillValid(s))) return
  step({ type: 'WORK', work: 'sending' })
  const txHash = await w.send(provider, chain, account, calls[calls.length - 1])
  const tracking = trackingOf(s, txHash)
  // Persist before anything else: from here on the buyer's money is moving.
  ctx.store.save(tracking)
  const known = await w.sentTransaction(reader, txHash)
  if (known) ctx.sent.set(txHash.toLowerCase(), known)
  ctx.dispatch({ type: 'SENT', tracking })
}

function trackingOf(s: Sending, txHash: string, callsId?: string): Tracking {
  const { config, clock } = s.ctx
  const { quote, session, approvalHash } = s.state
  return {
    provider: quote.provider,
    chainId: s.chain.id,
    txHash,
    callsId,
    walletRdns: session.wallet.rdns,
    summary: {
      amountIn: quote.amountIn,
      amountOut: quote.amountOut,
      fee: quote.fee,
      sourceChainId: s.chain.id,
      destChainId: config.destination?.chainId ?? config.defaultDestination.chainId,
      sourceSymbol: sourceOf(s.ctx, s.state.form).symbol,
      destSymbol: config.destination?.symbol ?? config.defaultDestination.symbol,
    },
    createdAt: clock.now(),
    approvalHash,
  }
}

function noticeOf(error: unknown): Notice {
  const mismatch = walk(error, (e) => (e as Error | null)?.name === 'ChainMismatchError')
  return mismatch ? { kind: 'wrongChain' } : { kind: 'wallet', problem: walletProblemOf(error) }
}
