// The funding transfer: asked for once per payout, from one tab, after every check (fundingChecks.ts).
// The mark that the wallet was asked is kept before the prompt, the hash before anything else after
// it: a reload never asks again on its own.
import type { Hex } from 'viem'
import { chainOf } from '../../config/config'
import { walletProblemOf } from '../../errors/WalletError'
import { walk } from '../../errors/WidgetError'
import { describeError } from '../../errors/describeError'
import { exclusive } from '../../kernel/tabLock'
import type { PayoutContext, StateOf } from './context'
import { type Attempt, checkBeforePrompt } from './fundingChecks'
import type { FundingProblem } from './base'
import type { PayoutRecord } from './record'
import { transferOf } from './transfer'

type Funding = StateOf<'funding'>

export async function fund(ctx: PayoutContext, state: Funding, alive: () => boolean) {
  // Two tabs on the same payout: only one may ask the wallet.
  const result = await exclusive(`stablecoin-widget:payout:send:${state.record.id}`, () => send(ctx, state, alive))
  if (result === 'elsewhere' && alive()) ctx.funding({ type: 'BLOCKED', problem: { kind: 'elsewhere' } })
}

async function send(ctx: PayoutContext, state: Funding, alive: () => boolean) {
  const { record } = state
  const { store, funding: dispatch } = ctx
  const sender = state.sender as Hex
  const provider = state.wallet && ctx.providerOf(state.wallet.id)
  const block = (problem: FundingProblem): undefined => void (alive() && dispatch({ type: 'BLOCKED', problem }))
  if (!provider || !sender) return block({ kind: 'wallet', problem: 'disconnected' })
  const attempt: Attempt = { record, sender, provider, chain: chainOf(ctx.config, record.chain), tx: transferOf(record, ctx.source), alive, block }
  let asked = false
  try {
    // Another tab may have offered this payout by address, or asked a wallet for it, since this tab
    // read it: that is taken in first, and the buyer decides again here (the word, the re-check).
    if (tookIn(ctx, record, alive)) return
    const w = await checkBeforePrompt(ctx, attempt)
    if (!w) return
    // And again right before the mark, with nothing awaited in between: the checks take a while.
    if (tookIn(ctx, record, alive)) return
    // Kept BEFORE the wallet is asked: a reload while its confirmation is open (it stays in the
    // wallet's queue) must know a transfer to this address may be on its way.
    const marked: PayoutRecord = { ...record, promptedAt: ctx.clock.now() }
    store.save(marked)
    dispatch({ type: 'PROMPTED', record: marked })
    asked = true
    const { tx } = attempt
    const txHash = await w.send(provider, attempt.chain, sender, { to: tx.to as Hex, data: tx.data as Hex, value: tx.value })
    // Past the point of no return: kept before anything else, so a reload follows it and never asks again.
    ctx.spent.add(record.depositAddress)
    store.save({ ...marked, txHash, sender })
    dispatch({ type: 'SENT', txHash, sender })
  } catch (error) {
    failed(ctx, attempt, error, asked)
  }
}

/** This payout as this browser keeps it now (another tab may have written it since `record` was read). */
function storedCopy(ctx: PayoutContext, record: PayoutRecord): PayoutRecord | undefined {
  const stored = ctx.store.load({ accountId: record.accountId, wallet: record.wallet })
  return stored?.id === record.id ? stored : undefined
}

/**
 * Another tab's mark since `record` was read, taken in: an offer or a newer prompt (STORED: the
 * buyer decides again), or a hash (SENT: followed; only the payout's own wallet sends). True when one was.
 */
function tookIn(ctx: PayoutContext, record: PayoutRecord, alive: () => boolean): boolean {
  const stored = storedCopy(ctx, record)
  if (!stored) return false
  const offered = stored.offeredAt !== undefined && record.offeredAt === undefined
  const prompted = stored.promptedAt !== undefined && stored.promptedAt !== record.promptedAt
  if (!offered && !prompted && !stored.txHash) return false
  if (alive()) ctx.funding(stored.txHash ? { type: 'SENT', txHash: stored.txHash, sender: stored.sender ?? record.wallet } : { type: 'STORED', record: stored })
  return true
}

/**
 * The buyer asked for the payout as a request to pay from elsewhere (OFFER): the mark is kept on
 * top of the payout as stored, never over what another tab kept since (then that is taken in here
 * instead, and nothing offered).
 */
export function keepOffer(ctx: PayoutContext, state: Funding, alive: () => boolean) {
  const { record } = state
  if (tookIn(ctx, record, alive)) return
  const stored = storedCopy(ctx, record)
  if (stored?.offeredAt === undefined) ctx.store.save({ ...(stored ?? record), offeredAt: record.offeredAt })
}

/** What a send that threw leaves: nothing on its way (before the prompt, or declined), or a mark to check first. */
function failed(ctx: PayoutContext, { record, alive, block }: Attempt, error: unknown, asked: boolean) {
  const mismatch = !!walk(error, (e) => (e as Error | null)?.name === 'ChainMismatchError')
  const problem = walletProblemOf(error)
  if (asked && (mismatch || problem === 'rejected')) {
    // The wallet refused before sending, or the buyer declined: this ask left nothing on its way (an earlier unanswered one still counts).
    ctx.store.save(record)
    if (alive()) ctx.funding({ type: 'BLOCKED', problem: mismatch ? { kind: 'wrongChain' } : { kind: 'wallet', problem }, record, asked: true })
    return
  }
  if (!alive()) return
  if (mismatch) return block({ kind: 'wrongChain' })
  // Before the prompt, a failure is the service's or the chain's (the status check, a read): nothing was sent.
  if (!asked && problem === 'unknown') return block({ kind: 'check', problem: describeError(error) })
  // Asked, and no answer we can trust: the mark stays, and the buyer checks before any new send.
  ctx.funding({ type: 'BLOCKED', problem: { kind: 'wallet', problem }, asked })
}
