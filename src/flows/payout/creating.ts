// What a bank and a card payout's creation share: one reference per request (the request kept only
// as its digest, made here), and the answer held to the quote before it is kept and funded (bank.ts
// and card.ts send the request).
import type { Payout } from '../../api/payout'
import { ApiError, FieldRejected, QuoteExpired } from '../../errors/ApiError'
import { describeError } from '../../errors/describeError'
import { payoutProblem } from '../../errors/payoutWords'
import { pickLimit } from '../../lib/limits'
import type { PayoutContext, StateOf } from './context'
import type { PayoutRecord } from './record'
import { type DigestOf, newReference } from './persisted'
import { checkPayout } from './transfer'

type Creating = StateOf<'beneficiary' | 'card'>

/** What makes one POST /bank/payout: a different value of any of these is a different payout. */
export type CreateRequest = { quoteId: string; accountId: string; beneficiary: Record<string, unknown>; purpose?: string }

/** Key order does not matter; values do. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.keys(value as object)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])])
  }
  return value
}

/**
 * A 128-bit digest of the request, salted with its (random) reference: only whether a request is
 * the same one is ever asked, and the beneficiary's details are never stored. Synchronous and
 * without WebCrypto (which an http page lacks), so nothing stands between the click and the key.
 */
function requestDigest(reference: string, request: CreateRequest): string {
  const text = JSON.stringify([reference, request.quoteId, request.accountId, canonical(request.beneficiary), request.purpose ?? ''])
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('')
}

/** The request as the reference stores take it: its digest under any reference. */
export const digestOf =
  (request: CreateRequest): DigestOf =>
  (reference) =>
    requestDigest(reference, request)

/**
 * The reference this request goes under, or undefined once the attempt stopped (said already).
 * A reference belongs to exactly one request. The partner's signed one is one payout: a different
 * request is never sent under it (the service would hand back the first payout). Ours is made per
 * request and stored before the first attempt: a retry of this very request after a lost answer
 * sends the same one and gets the same payout, never a second; so does the refused request sent
 * again after a higher verification tier. A different request never goes under it.
 */
export async function referenceFor(ctx: PayoutContext, state: Creating, request: CreateRequest, alive: () => boolean): Promise<string | undefined> {
  const { destination: dispatch, references } = ctx
  const signed = ctx.config.reference
  try {
    // The stored references and payouts are read from here on: their checks first.
    await Promise.all([ctx.store.ready(), references.ready()])
  } catch (error) {
    if (alive()) dispatch({ type: 'CREATE_FAILED', problem: describeError(error) })
    return undefined
  }
  const digest = digestOf(request)
  if (signed && !references.claim(signed, digest)) {
    dispatch({ type: 'CREATE_FAILED', problem: payoutProblem({ kind: 'referenceUsed' }) })
    return undefined
  }
  return signed ?? references.forRequest(digest, ctx.newReference ?? (() => newReference()))
}

/** The service's answer, held to the quote before it is kept and funded. */
export function created(ctx: PayoutContext, state: Creating, payout: Payout, alive: () => boolean, extra: Partial<PayoutRecord> = {}) {
  const { destination: dispatch } = ctx
  const verdict = checkPayout(payout, state.quote, ctx.source)
  if (!verdict.ok) {
    if (alive()) dispatch({ type: 'CREATE_FAILED', problem: payoutProblem({ kind: 'mismatch', rule: verdict.rule }) })
    return
  }
  const record = { ...recordOf(ctx, state, payout), ...extra }
  // The payout exists: kept before anything else, so a reload funds this one, not a new one.
  ctx.store.save(record)
  dispatch({ type: 'CREATED', record })
  // The same reference gave back a payout whose address already received: follow it, never fund it again.
  if (payout.status !== 'pending' || ctx.spent.has(payout.depositAddress)) ctx.funding({ type: 'ALREADY_FUNDED' })
}

/** Why the service refused: a field of the beneficiary, an expired price, a higher verification tier. */
export function failed(ctx: PayoutContext, error: unknown, alive: () => boolean) {
  const signed = ctx.config.reference
  // The service refused the request outright: nothing exists under the signed reference, so a corrected request may use it.
  if (signed && error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 409) ctx.references.release(signed)
  if (!alive()) return
  const field = error instanceof FieldRejected && error.field?.startsWith('beneficiary.') ? error.field.slice('beneficiary.'.length) : undefined
  // A higher verification tier: nothing was created; the buyer verifies further and the same request goes again under this reference.
  const requiresAction = error instanceof ApiError && error.code === 'requires_action'
  ctx.destination({
    type: 'CREATE_FAILED',
    problem: describeError(error),
    field: field ? { name: field, problem: { kind: 'refused' } } : undefined,
    expired: error instanceof QuoteExpired,
    requiresAction,
  })
}

/** The payout as kept: what funding and following need, whose it is, and nothing personal. */
function recordOf(ctx: PayoutContext, state: Creating, payout: Payout): PayoutRecord {
  const { source } = ctx
  const bank = 'rail' in state.quote ? state.quote : undefined
  const entry = bank && state.limits && pickLimit(state.limits, { currency: state.ask.currency, direction: 'payout', rail: bank.rail })
  return {
    id: payout.id,
    depositAddress: payout.depositAddress,
    depositAmount: payout.depositAmount,
    chain: payout.chain,
    expiresAt: payout.expiresAt,
    token: source.token,
    symbol: source.symbol,
    decimals: source.decimals,
    fiatAmount: state.quote.fiatAmount,
    fiatCurrency: state.ask.currency,
    ...(bank ? { rail: bank.rail, settlement: (entry || undefined)?.settlement ?? bank.estimatedSettlement } : {}),
    // Whose it is: resumed for this buyer only.
    accountId: state.buyer.accountId,
    wallet: state.buyer.wallet,
    createdAt: ctx.clock.now(),
    // Paid from another wallet or an exchange, as the buyer chose at the connect step.
    ...(state.funder?.byAddress ? { offeredAt: ctx.clock.now() } : {}),
  }
}
