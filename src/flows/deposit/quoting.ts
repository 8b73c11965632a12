// Asking for a price, and the guard every quote passes before the buyer or the wallet sees it.
import type { DepositAddressRequest, DepositQuote, DepositQuoteRequest } from '../../api/schemas'
import { quoteDeposit } from '../../api/deposit'
import { describeError } from '../../errors/describeError'
import { overBalance } from '../../errors/depositProblems'
import { toBaseUnits } from '../../lib/decimal'
import { staleness } from '../../kernel/quote'
import type { Rejection } from '../../kernel/types'
import type { ChainActions, DepositContext } from './context'
import { heldBelow } from './heldBalance'
import type { DepositState, Form, Session } from './machine'

export const sourceOf = (ctx: DepositContext, form: Form) => ctx.config.sources[form.source] ?? ctx.config.sources[0]

/** What the buyer asked for: the request the quote must answer, and the guard's reference. */
export function requestOf(ctx: DepositContext, form: Form, session: Session, amount: string): DepositQuoteRequest {
  const source = sourceOf(ctx, form)
  const fixed = ctx.config.destination
  return {
    source: { chainId: source.chainId, token: source.token, address: session.account },
    destination: fixed ? { chainId: fixed.chainId, token: fixed.token, address: fixed.address ?? session.account } : undefined,
    amount,
    method: 'crypto',
  }
}

const big = (v: string) => {
  try {
    return BigInt(v).toString()
  } catch {
    return v
  }
}

/**
 * What the quote would make the wallet do, written one way: a re-cased address, a value "00" or an
 * amountIn "25.50" is the same quote.
 */
export function fingerprint(ctx: DepositContext, quote: DepositQuote): string {
  const tx = quote.transaction
  const a = quote.approval
  const decimals = ctx.config.sources.find((s) => s.chainId === tx.chainId)?.decimals
  let amountIn = quote.amountIn
  try {
    if (decimals !== undefined) amountIn = toBaseUnits(quote.amountIn, decimals).toString()
  } catch {}
  return JSON.stringify([
    tx.chainId,
    tx.to.toLowerCase(),
    tx.data.toLowerCase(),
    big(tx.value),
    a ? [a.token.toLowerCase(), a.spender.toLowerCase(), big(a.amount)] : null,
    amountIn,
  ])
}

/** Refuses the quote for good, and tells the machine why. */
export function reject(ctx: DepositContext, quote: DepositQuote, rejection: Rejection, alive: () => boolean) {
  ctx.rejected.add(fingerprint(ctx, quote))
  if (alive()) ctx.dispatch({ type: 'QUOTE_REJECTED', rejection })
}

/** The guard, with the wallet code (it decodes calldata with viem): `true` when the quote may be used. */
export function guard(ctx: DepositContext, w: ChainActions, quote: DepositQuote, request: DepositAddressRequest, alive: () => boolean): boolean {
  const verdict = ctx.rejected.has(fingerprint(ctx, quote)) ? ({ ok: false, rule: 'reused' } as const) : w.guardQuote(request, quote, ctx.config)
  if (verdict.ok) return true
  reject(ctx, quote, { rule: verdict.rule }, alive)
  return false
}

export async function requestQuote(ctx: DepositContext, state: Extract<DepositState, { tag: 'quoting' }>, alive: () => boolean) {
  const request = requestOf(ctx, state.form, state.session, state.amount)
  try {
    const [quote, w] = await Promise.all([quoteDeposit(ctx.api, request), ctx.loadChainActions()])
    // Before anything reaches the wallet, and before the buyer sees a price to confirm.
    if (!alive() || !guard(ctx, w, quote, request, alive)) return
    // Already expired, or "valid" for more than an hour: shown as such, never used, never re-asked on its own.
    const at = ctx.clock.now()
    ctx.dispatch({ type: 'QUOTED', quote, at, stale: staleness(quote.expiresAt, at) })
  } catch (error) {
    let problem = describeError(error)
    // No route for more than the wallet holds: the buyer is told what it holds, not to wait.
    if (problem.key === 'quote.noRoute' && alive()) {
      const source = sourceOf(ctx, state.form)
      const held = await heldBelow(ctx, source, state.session, state.amount)
      if (held !== undefined) problem = overBalance(problem, held, source.symbol)
    }
    if (alive()) ctx.dispatch({ type: 'QUOTE_FAILED', problem })
  }
}
