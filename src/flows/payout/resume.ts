// Where the payout starts, and what a page (re)load resumes: back from the card page, a kept payout
// (funded or being funded), back from the identity provider, or a new form. A stored payout is
// resumed only for the buyer it belongs to (owner.ts); another buyer's stays stored, never shown.
// Pure: the time a way back was read comes with it.
import type { IdentityState } from '../../identity/machine'
import { isExpired } from '../../kernel/quote'
import { type BuyerAccount, type CardReturn, type Pending, emptyDraft, sameAddress } from './base'
import { fundingOf } from './funding'
import { onboardAgain } from './identitySteps'
import { ownedBy } from './owner'
import { type PayoutRecord, promptedUnanswered } from './record'
import type { Context, PayoutState } from './state'

export type Resumed = { record?: PayoutRecord; buyer?: BuyerAccount; identity: IdentityState; pending?: Pending; cardReturn?: CardReturn }

export function initialState(init: Resumed, ctx: Context): PayoutState {
  const { buyer, pending, identity } = init
  if (pending && buyer && cardPageOf(pending, buyer, ctx)) return backFromCard(pending, init.cardReturn)
  // Another buyer's payout (another account, another wallet, a link signed for another wallet) is never shown.
  const record = init.record && buyer && ownedBy(init.record, buyer, ctx.linkWallet) ? init.record : undefined
  if (record && buyer) return resumed(buyer, record)
  // Back from the identity provider: the identity steps go on, the payout they interrupted with them;
  // only for its own buyer (a higher tier's) or its own wallet (under a link signed for one).
  // Back from a higher tier, the details typed before go again with the new code, unasked.
  if (pending && identity.tag !== 'wallet' && (!buyer || pending.tier) && pendingFor(pending, buyer, ctx))
    return { ...(pending.tier ? onboardAgain(identity) : identity), pending }
  // Back with a code but without the payout (another tab kept it): the identity steps end in a new form.
  if (!buyer && identity.tag === 'details') return identity
  // Verified elsewhere meanwhile, or a way back without its code: the price is asked again.
  if (pending && buyer && !pending.tier && pendingFor(pending, buyer, ctx)) {
    return { tag: 'quoting', buyer, form: pending.form, limits: pending.limits, draft: pending.draft, funder: pending.funder, ask: pending.ask, requote: true }
  }
  return { tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft() }
}

/**
 * The card page this tab opened, for the buyer it opened it for (the buyer this link starts with,
 * as a kept payout is resumed only for its own buyer).
 */
function cardPageOf(pending: Pending, buyer: BuyerAccount, ctx: Context): pending is Pending & Required<Pick<Pending, 'cardSession' | 'buyer' | 'quoted'>> {
  return (
    !!pending.cardSession &&
    !!pending.buyer &&
    !!pending.quoted &&
    !pending.tier &&
    ownedBy(pending.buyer, buyer, ctx.linkWallet) &&
    pending.buyer.walletId === buyer.walletId
  )
}

/** Back from the card page: only the session this tab opened is turned into a payout, once, at a price still valid. */
function backFromCard(pending: Pending & Required<Pick<Pending, 'cardSession' | 'buyer' | 'quoted'>>, cardReturn: CardReturn | undefined): PayoutState {
  const back = cardReturn?.session === pending.cardSession ? cardReturn : undefined
  const { form, draft, ask, funder, quoted, applicant } = pending
  const base = { buyer: pending.buyer, form, draft, ask, funder, applicant, ...quoted }
  // A price that ran out meanwhile is asked again (the session waits for it), never sent to create.
  if (back?.result === 'ok' && isExpired(quoted.quote.expiresAt, back.at)) {
    const { quote: _, quotedAt: __, ...unpriced } = base
    return { ...unpriced, tag: 'quoting', cardSession: pending.cardSession, requote: true }
  }
  if (back?.result === 'ok') return { ...base, tag: 'card', cardSession: pending.cardSession, work: 'creating' }
  return { ...base, tag: 'card', work: 'idle', cancelled: back?.result === 'cancelled' }
}

/** A kept payout: its result once it ended; followed once its hash exists; else funded, checking first what arrived if the wallet was asked before the reload (never asked again on its own). */
function resumed(buyer: BuyerAccount, record: PayoutRecord): PayoutState {
  // It ended: its result, as it was shown (a new payout starts from there).
  if (record.final) return { tag: 'result', buyer, record, status: record.final }
  if (record.txHash) return { tag: 'tracking', buyer, record, attempt: 0 }
  return { ...fundingOf(buyer, record), ...(promptedUnanswered(record) ? { verify: 'running' as const } : {}) }
}

/**
 * Whether a payout the identity steps interrupted belongs with this link: a higher tier's to the
 * buyer it was asked of (the buyer this link starts with), and under a link signed for a wallet,
 * only a payout that wallet funds. Another buyer's stays untouched, never shown.
 */
function pendingFor(pending: Pending, buyer: BuyerAccount | undefined, ctx: Context): boolean {
  if (pending.tier && !(pending.buyer && buyer && ownedBy(pending.buyer, buyer, ctx.linkWallet) && pending.buyer.walletId === buyer.walletId)) return false
  return !ctx.linkWallet || !pending.funder || sameAddress(pending.funder.sender, ctx.linkWallet)
}
