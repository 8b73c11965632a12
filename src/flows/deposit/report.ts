// Telling the partner's kit about a sent deposit (POST {partnerBase}/deposit/sent), where the partner
// has a backend: once per transaction, once its receipt is in (the kit reads that receipt from the
// chain itself, and refuses a transaction not mined yet), in the background. Fetched then, not with
// the flow. It never holds up, delays or fails the deposit: trouble is tried again a few times with a
// growing backoff, then dropped quietly.
import { reportDepositSent } from '../../api/depositSent'
import { createPartnerHttp } from '../../api/partnerHttp'
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
  const http = createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies })
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
      if (error instanceof ApiError && FINAL.includes(error.status)) return true
    }
  }
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
