// Telling the partner's kit about a sent deposit (POST {partnerBase}/deposit/sent), where the partner
// has a backend: once per transaction, once its receipt is in (the kit reads that receipt from the
// chain itself, and refuses a transaction not mined yet), in the background. Fetched then, not with
// the flow. It never holds up, delays or fails the deposit: trouble is tried again a few times with a
// growing backoff, then dropped quietly. A refusal to record it (wallet_not_linked) is said.
import { reportDepositSent } from '../../api/depositSent'
import { ApiError } from '../../errors/ApiError'
import type { DepositContext } from './context'
import type { Tracking } from './machine'

const TRIES = 4
/** Answers that asking again does not change: the request itself, who asks, or whose transaction it is. */
const FINAL = [400, 401, 403, 404]

/** Resolves true once the report ended (the kit told, or given up), false when the widget went first. */
export async function reportSent(ctx: DepositContext, tracking: Tracking): Promise<boolean> {
  const { config, gone } = ctx
  const { provider, txHash, chainId } = tracking
  const http = await ctx.partner()
  const backoffMs = config.timings?.backoffBaseMs ?? 2_000
  for (let attempt = 0; attempt < TRIES; attempt++) {
    if (attempt) await ctx.sleep(backoffMs * 2 ** (attempt - 1))
    if (gone.signal.aborted) return false
    try {
      const { id } = await reportDepositSent(http, { provider, txHash, chainId }, gone.signal)
      keep(ctx, txHash, id)
      if (!gone.signal.aborted) ctx.dispatch({ type: 'REPORTED', txHash, id })
      return true
    } catch (error) {
      if (gone.signal.aborted) return false
      if (error instanceof ApiError && error.code === 'wallet_not_linked') return refused(ctx, txHash)
      // Paid by address into the buyer's own address, but not as quoted: final, and said as unrecorded.
      if (error instanceof ApiError && error.code === 'deposit_not_as_quoted') return notAsQuoted(ctx, txHash)
      // Over the user's limit, counted when the kit records: it does not lift in a moment, and the deposit was sent.
      if (error instanceof ApiError && error.code === 'user_limit_reached') return overLimit(ctx, txHash)
      if (error instanceof ApiError && FINAL.includes(error.status)) return true
    }
  }
  return true
}

/**
 * The kit refused to record the deposit: its sender is not a wallet linked to the buyer (403
 * wallet_not_linked). The deposit was sent and is followed as any; the page hears it (hostEvents.ts,
 * no address in it), the buyer is told what to do if the shop does not show it, and the console says
 * why: where the entry lacks walletLink, the deposit was sent without asking the kit about the wallet.
 */
function refused(ctx: DepositContext, txHash: string): true {
  console.error(
    ctx.config.walletLink
      ? "[stablecoin-widget] the partner's backend refused to record a sent deposit (403 wallet_not_linked): its sender is not a wallet it links to this buyer"
      : "[stablecoin-widget] walletLink: the partner's backend refused to record a sent deposit (403 wallet_not_linked): it was sent without linking the wallet, as this partner's registry entry (in script mode, the page's options) does not say walletLink: true. Where the partner's kit runs with chains, set walletLink: true",
  )
  ctx.dispatch({ type: 'UNRECORDED', txHash })
  return true
}

/** 422 deposit_not_as_quoted: the kit gave this buyer the address, but the transfer is another amount or token, or older. */
function notAsQuoted(ctx: DepositContext, txHash: string): true {
  console.error(
    "[stablecoin-widget] the partner's backend refused to record a deposit paid by address (422 deposit_not_as_quoted): not the quoted token and amount",
  )
  ctx.dispatch({ type: 'UNRECORDED', txHash })
  return true
}

/** 429 user_limit_reached: the kit records no more deposits for this buyer today; this one was sent all the same. */
function overLimit(ctx: DepositContext, txHash: string): true {
  console.error("[stablecoin-widget] the partner's backend refused to record a sent deposit (429 user_limit_reached): this buyer's limit is reached")
  ctx.dispatch({ type: 'UNRECORDED', txHash })
  return true
}

/** The kit's answer, kept with the deposit while the kept record is this one: a reload does not tell it again. */
function keep(ctx: DepositContext, txHash: string, id: string) {
  try {
    const kept = ctx.store.load()
    if (kept?.txHash === txHash) ctx.store.save({ ...kept, kit: { txHash, id } })
  } catch {
    // The record's check is not here: the machine still has the answer; a reload tells the kit again.
  }
}
