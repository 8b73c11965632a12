// The bank payout as data: a pure transition. No I/O, no timers, no DOM.
// Price first: form → quoting → quote (anonymous) → connect (the wallet that funds it, EIP-6963) →
// identity (only when the buyer is not known, with the connected wallet) → beneficiary → funding →
// tracking → result. The quote expires into a new price, never into a payout; the transfer is
// asked for once per payout, and a reload never asks again once its hash exists, nor on its own
// once the wallet was asked (promptedAt): it checks first, and only the buyer's second
// confirmation sends again. A stored payout is resumed only for the buyer it belongs to.
import type { LimitEntry } from '../../api/reference'
import type { CardPayoutQuote } from '../../api/cardPayout'
import type { PayoutQuote, PayoutStatus } from '../../api/payout'
import {
  type Applicant,
  type IdentityEvent,
  type IdentityState,
  type Onboarded,
  emptyApplicant,
  identityTransition,
  initialIdentity,
  isIdentityEvent,
  isIdentityState,
} from '../../identity/machine'
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import { type Priced, type QuoteEvent, isExpired, priced, requoteOn } from '../../kernel/quote'
import type { Problem, SendProblem, Step, WalletInfo, Work } from '../../kernel/types'
import { type OfferedSchemaId, beneficiarySchema, initialValues, purposeProblem, schemaFor, validateBeneficiary } from './beneficiary'
import type { FieldProblem } from './fieldProblem'
import { type AmountProblem, parseAmount } from '../../lib/decimal'
import { type LimitCheck, checkAmount, limitsFor, pickLimit } from '../../lib/limits'
import { payoutFinal } from '../../lib/status/payout'
import { ownedBy } from './owner'

/** The buyer the service knows (the identity steps end with them): whose the payout is. */
export type BuyerAccount = Onboarded['account']

/** Where the fiat lands: a bank account (or mobile money, or a wallet) named by a beneficiary, or a card entered on the card provider's page. */
export type Destination = 'bank' | 'card'

/** The price of either: the card's has no rail (the card network) and no settlement label. */
export type AnyPayoutQuote = PayoutQuote | CardPayoutQuote

/** The token the payout is funded with (from the embedding's sources; the service never picks it). */
export type Source = { chainId: number; token: string; symbol: string; decimals: number }

/** What the buyer types: one amount (in the stablecoin, or the fiat that must arrive), where, and how (a card payout has no country nor rail). */
export type PayoutForm = { kind: 'crypto' | 'fiat'; amount: string; currency: string; country: string; rail: string }

/** The quote request as asked: the amount canonical (a dot), the rail only when forced; a card's country is ''. */
export type QuoteAsk = { kind: 'crypto' | 'fiat'; amount: string; currency: string; country: string; rail?: string }

/** The beneficiary as typed, kept through re-quotes and errors (a typo never clears it). */
export type Draft = { schema?: OfferedSchemaId; values: Record<string, string>; purpose: string }

/** Why the quote is not what the buyer asked (quoteCheck.ts): never shown, nothing created. */
export type AskRule = 'ask.crypto' | 'ask.fiat'

/** What the form says; errors/payoutWords.ts words the payout's own (`ask`). */
export type FormError =
  | { kind: 'amount'; problem: AmountProblem }
  | { kind: 'country' }
  | { kind: 'limits'; check: Extract<LimitCheck, { ok: false }> }
  | { kind: 'ask'; rule: AskRule }
  | { kind: 'api'; problem: Problem }

/** The payout once it exists: what resuming needs, nothing personal (no beneficiary), and whose it is. */
export type PayoutRecord = {
  id: string
  depositAddress: string
  depositAmount: string
  chain: number
  expiresAt: string
  token: string
  symbol: string
  decimals: number
  fiatAmount: string
  fiatCurrency: string
  /** A bank payout's rail (a card payout has none). */
  rail?: string
  /** The rail's settlement label from GET /limits, else the quote's estimatedSettlement (a bank payout's). */
  settlement?: string
  /** A card payout's card, as the service names it (never its number). */
  card?: { brand: string; last4: string }
  /** The buyer it belongs to: the paying account and its wallet. Resumed for that buyer only. */
  accountId: string
  wallet: string
  /**
   * When the wallet was asked for the transfer (kept before asking). Without a hash it means a
   * transfer may be waiting in the wallet or on its way: never asked for again on its own.
   */
  promptedAt?: number
  /** The wallet that sent, once it did; the transfer's hash. */
  sender?: string
  txHash?: string
  createdAt: number
}

/** Why the funding transfer was not asked for, or what the wallet answered (errors/words.ts says it). */
export type FundingProblem = SendProblem

/** The wallet the buyer connected to fund the payout: its address, and the wallet itself while this page lives. */
export type Funder = { sender: string; wallet?: WalletInfo }

/**
 * What the payout carries through the identity steps (a full navigation to the identity provider
 * and back): the ask, the price, the wallet's address, the beneficiary as typed. After
 * requires_action, the same request goes again once the buyer verified further, under the same
 * idempotency key: the key belongs to that request (persisted.ts), never to another.
 */
export type Pending = {
  form: PayoutForm
  limits?: LimitEntry[]
  draft: Draft
  ask: QuoteAsk
  funder?: Funder
  quoted?: Priced<AnyPayoutQuote>
  /** `higher`: the service asked for a higher verification tier (422 requires_action) of this buyer. */
  tier?: 'higher'
  buyer?: BuyerAccount
  /** A card payout: the session of the card page the buyer was sent to (its return names it). */
  cardSession?: string
  /** A card payout: the applicant's details typed before the card page, for a higher tier asked after it. */
  applicant?: Applicant
}

/** How the card page came back: the session it names, what the buyer did there, and when the page read it (the price's expiry is judged at that time). */
export type CardReturn = { session: string; result: 'ok' | 'cancelled'; at: number }

/** Who the buyer is once known; undefined before the identity steps (the price is anonymous). */
type Base = {
  buyer?: BuyerAccount
  form: PayoutForm
  limits?: LimitEntry[]
  draft: Draft
  funder?: Funder
  applicant?: Applicant
  /** A card payout: the card page's session that came back `ok`, not yet turned into a payout. */
  cardSession?: string
}
type QuotedBase = Base & { ask: QuoteAsk } & Priced<AnyPayoutQuote>
type Known = { buyer: BuyerAccount }

export type FundingWork = 'connecting' | 'checking' | 'switching' | 'sending'

/** The identity steps, carrying the payout they interrupt (none when the way back lost it). */
export type PayoutIdentity = IdentityState & { pending?: Pending }

export type PayoutState =
  | PayoutIdentity
  /**
   * `abandoned`: the unfunded payout the buyer started over from (its record and reference go).
   * `forgetBuyer`: "Not you?" (the stored buyer and every bank record of this device go).
   */
  | ({ tag: 'form'; error?: FormError; abandoned?: string; forgetBuyer?: boolean } & Base)
  | ({ tag: 'quoting'; ask: QuoteAsk; requote: boolean } & Base)
  | ({ tag: 'quote'; work: Work<never> } & QuotedBase)
  /** The wallet that funds the payout is connected before anything personal is asked. */
  | ({ tag: 'connect'; wallets?: WalletInfo[]; wallet?: WalletInfo; work: Work<'connecting'>; problem?: FundingProblem } & QuotedBase)
  | ({
      tag: 'beneficiary'
      problems: Record<string, FieldProblem>
      /** `creating`: POST /bank/payout is under way (with the persisted reference). */
      work: Work<'creating'>
      problem?: Problem
    } & QuotedBase &
      Known & { quote: PayoutQuote })
  /**
   * A card payout's card: entered on the card provider's page (`opening`: its session is asked
   * and the page opened, a full navigation), then the payout created with the session that came
   * back (`creating`). `cancelled`: the buyer left the card page without a card.
   */
  | ({ tag: 'card'; work: Work<'opening' | 'creating'>; problem?: Problem; cancelled?: boolean } & QuotedBase & Known)
  | {
      tag: 'funding'
      buyer: BuyerAccount
      record: PayoutRecord
      /**
       * After a prompt whose answer never came (a reload): the service's status and the address's
       * balance are read again (`running`; the buyer may connect meanwhile), and only once they show
       * nothing (`clear`) may the buyer choose to send again.
       */
      verify?: 'running' | 'clear'
      wallets?: WalletInfo[]
      wallet?: WalletInfo
      sender?: string
      work: Work<FundingWork>
      problem?: FundingProblem
    }
  | ({ tag: 'tracking'; buyer: BuyerAccount; record: PayoutRecord; status?: PayoutStatus; alreadyFunded?: boolean } & Followed)
  | { tag: 'result'; buyer: BuyerAccount; record: PayoutRecord; status: PayoutStatus }

export type PayoutEvent =
  | IdentityEvent
  | { type: 'LIMITS'; limits: LimitEntry[] }
  /** The form's fields that changed. */
  | ({ type: 'EDIT' } & Partial<PayoutForm>)
  /** The beneficiary's fields that changed (its schema changes with SCHEMA). */
  | { type: 'EDIT'; draft: Partial<Pick<Draft, 'values' | 'purpose'>> }
  /** The form asks for a quote; the beneficiary's (`now`: the screen's clock) creates the payout. */
  | { type: 'SUBMIT' }
  | { type: 'SUBMIT'; now: number }
  | QuoteEvent<AnyPayoutQuote>
  /** The quote answered another amount than the buyer asked (quoteCheck.ts). */
  | { type: 'QUOTE_REJECTED'; rule: AskRule }
  | { type: 'BACK' }
  /**
   * The buyer goes ahead: from the quote to the beneficiary, or (funding) asks the wallet for the
   * transfer. `confirmed`: the buyer's second confirmation, needed once the wallet was already asked.
   */
  | { type: 'CONFIRM'; now: number; confirmed?: boolean }
  | { type: 'CREATED'; record: PayoutRecord }
  /** `field`: the beneficiary field the service refused, and its mark; `expired`: the quote ran out (quote again). */
  /** `requiresAction`: the service wants a higher verification tier; the same request goes again once verified (its reference is the request's own). */
  | { type: 'CREATE_FAILED'; problem: Problem; field?: { name: string; problem: FieldProblem }; expired?: boolean; requiresAction?: boolean }
  /** The request's own checks (an address's EIP-55 checksum, beneficiaryRequest.ts) found these fields wrong: nothing was sent. */
  | { type: 'INVALID'; problems: Record<string, FieldProblem> }
  | { type: 'WALLETS'; wallets: WalletInfo[] }
  | { type: 'CONNECT'; wallet: WalletInfo }
  | { type: 'CONNECTED'; sender: string }
  | { type: 'WORK'; work: FundingWork }
  /** The wallet is being asked now: `record` carries the mark, already kept. */
  | { type: 'PROMPTED'; record: PayoutRecord }
  /** `record`: the payout as kept after the attempt (the mark dropped when the wallet declined this first ask). `asked`: the wallet was asked. */
  | { type: 'BLOCKED'; problem: FundingProblem; record?: PayoutRecord; asked?: boolean }
  /** Read the status and the address's balance again (after a prompt whose answer never came). */
  | { type: 'RECHECK' }
  /** Nothing arrived at the address and the service still waits: the buyer may choose to send. */
  | { type: 'VERIFIED' }
  /** The re-check could not be made (the service, the chain): nothing may be sent until it is. */
  | { type: 'VERIFY_FAILED'; problem: FundingProblem }
  | { type: 'SENT'; txHash: string; sender: string }
  /** The service already saw money at this payout's address: follow it, never send again. */
  | { type: 'ALREADY_FUNDED' }
  | { type: 'TRACK'; status: PayoutStatus }
  | FollowEvent
  | { type: 'RESTART' }
  /** The card page could not be opened (its session, a host the registry does not name). */
  | { type: 'CARD_FAILED'; problem: Problem }
  /** "Not you?": the stored buyer is someone else; forget every bank record and verify again. */
  | { type: 'NOT_YOU' }

/** The machine's context: what the embedding fixed, and how a new form starts. */
export type Context = {
  destination: Destination
  source: Source
  decimalMark: '.' | ','
  /** A new form (to start, or to start over). */
  emptyForm: () => PayoutForm
  /** The wallet a signed link names, if any: the only wallet the identity steps may verify. */
  linkWallet?: string
}

export const isFinalPayoutStatus = (status: string) => (payoutFinal as readonly string[]).includes(status)

export const emptyDraft = (): Draft => ({ values: {}, purpose: '' })

/** The wallet was asked for this payout's transfer and never answered with a hash (a reload, a lost answer). */
export const promptedUnanswered = (record: PayoutRecord) => record.promptedAt !== undefined && !record.txHash

export function initialState(
  init: { record?: PayoutRecord; buyer?: BuyerAccount; identity: IdentityState; pending?: Pending; cardReturn?: CardReturn },
  ctx: Context,
): PayoutState {
  const { buyer, pending } = init
  // Back from the card page: only the session this tab opened, for the buyer it opened it for (the
  // buyer this link starts with, as a kept payout is resumed only for its own buyer).
  if (pending?.cardSession && pending.buyer && pending.quoted && !pending.tier && buyer && ownedBy(pending.buyer, buyer, ctx.linkWallet) && pending.buyer.walletId === buyer.walletId) {
    const back = init.cardReturn?.session === pending.cardSession ? init.cardReturn : undefined
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
  // Another buyer's payout (another account, another wallet, a link signed for another wallet) is
  // never shown; it stays stored for its own buyer.
  const record = init.record && buyer && ownedBy(init.record, buyer, ctx.linkWallet) ? init.record : undefined
  if (record && buyer) {
    if (record.txHash) return { tag: 'tracking', buyer, record, attempt: 0 }
    // The wallet was asked before the reload: check what arrived before anything else, never ask again on its own.
    return { tag: 'funding', buyer, record, work: 'idle', ...(promptedUnanswered(record) ? { verify: 'running' as const } : {}) }
  }
  // Back from the identity provider: the identity steps go on, the payout they interrupted with them;
  // only for its own buyer (a higher tier's) or its own wallet (under a link signed for one).
  if (pending && init.identity.tag !== 'wallet' && (!buyer || pending.tier) && pendingFor(pending, buyer, ctx)) return { ...init.identity, pending }
  // Back with a code but without the payout (another tab kept it): the identity steps end in a new form.
  if (!buyer && init.identity.tag === 'details') return init.identity
  // Verified elsewhere meanwhile, or a way back without its code: the price is asked again.
  if (pending && buyer && !pending.tier && pendingFor(pending, buyer, ctx)) return { tag: 'quoting', buyer, form: pending.form, limits: pending.limits, draft: pending.draft, funder: pending.funder, ask: pending.ask, requote: true }
  return { tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft() }
}

export function transition(state: PayoutState, event: PayoutEvent, ctx: Context): PayoutState {
  if (isIdentityState(state)) return identityStep(state, event, ctx)
  switch (state.tag) {
    case 'form':
      if (event.type === 'NOT_YOU') return notYou(state, ctx)
      return formTransition(state, event, ctx)

    case 'quoting':
      if (event.type === 'QUOTED') {
        const quote = event.quote
        // The fiat that arrives must fit the rail the service chose (GET /limits); said before anything is created.
        const entry = state.limits && 'rail' in quote && pickLimit(state.limits, { currency: state.ask.currency, direction: 'payout', rail: quote.rail })
        const fits = entry ? checkAmount(quote.fiatAmount, entry) : ({ ok: true } as const)
        if (!fits.ok) return toForm(state, { kind: 'limits', check: fits })
        return { ...carried(state), tag: 'quote', ask: state.ask, work: 'idle', ...priced(event, state.requote) }
      }
      if (event.type === 'QUOTE_FAILED') return toForm(state, { kind: 'api', problem: event.problem })
      if (event.type === 'QUOTE_REJECTED') return toForm(state, { kind: 'ask', rule: event.rule })
      if (event.type === 'BACK') return toForm(state)
      return state

    case 'quote': {
      const requoted = requoteOn(state, event, requote)
      if (requoted) return requoted
      if (event.type === 'BACK') return toForm(state)
      if (event.type === 'CONFIRM') {
        if (isExpired(state.quote.expiresAt, event.now) || state.stale) return requote(state)
        return onward(state, ctx)
      }
      return state
    }

    case 'connect':
      return connectTransition(state, event, ctx)

    case 'beneficiary':
      return beneficiaryTransition(state, event)

    case 'card':
      return cardTransition(state, event)

    case 'funding':
      return fundingTransition(state, event, ctx)

    case 'tracking':
      switch (event.type) {
        case 'TRACK':
          return isFinalPayoutStatus(event.status.status)
            ? { tag: 'result', buyer: state.buyer, record: state.record, status: event.status }
            : { ...tracked(state), status: event.status }
        case 'RESTART':
          // Only once the status says the money left the buyer's hands for good or came back.
          return state
        default:
          return isFollowEvent(event) ? follow(state, event) : state
      }

    case 'result':
      if (event.type !== 'RESTART') return state
      return { tag: 'form', buyer: state.buyer, form: ctx.emptyForm(), draft: emptyDraft() }
  }
}

/** What every stage before the payout exists carries on (the price and the stage's own aside). */
function carried(state: Base): Base {
  const { buyer, form, limits, draft, funder, applicant, cardSession } = state
  return { buyer, form, limits, draft, funder, applicant, cardSession }
}

/**
 * After the price: the first thing the payout still lacks. The wallet that funds it; then who the
 * buyer is (the identity steps, with that wallet, only for a buyer the service does not know);
 * then the beneficiary.
 */
function onward(state: Extract<PayoutState, { tag: 'quote' | 'connect' }>, ctx: Context): PayoutState {
  const { ask, quote, quotedAt } = state
  const base = carried(state)
  if (!state.funder) return { ...base, tag: 'connect', ask, quote, quotedAt, work: 'idle' }
  if (!state.buyer) {
    const pending: Pending = { form: state.form, limits: state.limits, draft: state.draft, ask, funder: state.funder, quoted: { quote, quotedAt } }
    // The wallet verified is the one connected, or the one the partner signed into the link.
    return { ...initialIdentity({ ...emptyApplicant, ...state.applicant, wallet: ctx.linkWallet ?? state.funder.sender }), pending }
  }
  // A card payout's card is entered on the card provider's page.
  if (!('rail' in quote)) return { ...base, buyer: state.buyer, tag: 'card', ask, quote, quotedAt, work: 'idle' }
  const schema = schemaFor(ask, quote.rail, state.draft.schema)
  const values = schema && schema !== state.draft.schema ? { ...initialValues(beneficiarySchema(schema)), ...state.draft.values } : state.draft.values
  return { ...base, buyer: state.buyer, tag: 'beneficiary', ask, quote, quotedAt, draft: { ...state.draft, schema, values }, problems: {}, work: 'idle' }
}

/** The identity steps inside the payout: they end back in it, with the buyer known. */
function identityStep(state: PayoutIdentity, event: PayoutEvent, ctx: Context): PayoutState {
  const { pending } = state
  // Leaving the verification before it began: back to the price, or (a higher tier) to the
  // beneficiary as typed; the price is asked again if this page lost it.
  if (event.type === 'BACK' && state.tag === 'identity' && pending) {
    const base: Base = { buyer: pending.buyer, form: pending.form, limits: pending.limits, draft: pending.draft, funder: pending.funder, applicant: state.form, cardSession: pending.cardSession }
    if (!pending.quoted) return { ...base, tag: 'quoting', ask: pending.ask, requote: true }
    const quote: Extract<PayoutState, { tag: 'quote' }> = { ...base, tag: 'quote', ask: pending.ask, ...pending.quoted, work: 'idle' }
    return pending.tier ? onward(quote, ctx) : quote
  }
  // The form's and the beneficiary's EDIT (no `field`) and the beneficiary's SUBMIT (`now`) are not the identity steps' own.
  if (!isIdentityEvent(event) || (event.type === 'EDIT' && !('field' in event)) || 'now' in event) return state
  const next = identityTransition(state, event)
  if (next.tag !== 'onboarded') return { ...next, pending }
  const buyer = next.account
  // The details typed are kept while this page lives: a higher tier asked later onboards with them again.
  const applicant = state.form
  if (!pending) return { tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft(), applicant }
  const base: Base = { buyer, form: pending.form, limits: pending.limits, draft: pending.draft, funder: pending.funder, applicant, cardSession: pending.cardSession }
  // The price this page still holds goes on to the beneficiary (its expiry re-asks it there); else it is asked again.
  if (pending.quoted) return onward({ ...base, tag: 'quote', ask: pending.ask, ...pending.quoted, work: 'idle' }, ctx)
  return { ...base, tag: 'quoting', ask: pending.ask, requote: true }
}

function connectTransition(state: Extract<PayoutState, { tag: 'connect' }>, event: PayoutEvent, ctx: Context): PayoutState {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'WALLETS':
      return { ...state, wallets: event.wallets }
    case 'CONNECT':
      return idle ? { ...state, wallet: event.wallet, work: 'connecting', problem: undefined } : state
    case 'CONNECTED': {
      if (state.work !== 'connecting' || !state.wallet) return state
      // The account's own wallet funds the payout (partner-api.md: accountId): the one a signed link
      // names, the known buyer's, or (a new buyer) the one connected, which is then verified.
      const owner = ctx.linkWallet ?? state.buyer?.wallet
      if (owner && !sameAddress(owner, event.sender)) return { ...state, work: 'idle', problem: otherWallet(owner) }
      return onward({ ...state, work: 'idle', funder: { sender: event.sender, wallet: state.wallet } }, ctx)
    }
    case 'BLOCKED':
      return state.work === 'connecting' ? { ...state, work: 'idle', problem: event.problem } : state
    case 'EXPIRED':
      return idle ? requote(state) : state
    case 'BACK':
      return idle ? { ...carried(state), tag: 'quote', ask: state.ask, quote: state.quote, quotedAt: state.quotedAt, work: 'idle' } : state
    default:
      return state
  }
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

/** "Not you?": the stored buyer and every bank record of this device go; the price stays anonymous. */
function notYou(state: Base, ctx: Context): PayoutState {
  return { tag: 'form', form: state.form ?? ctx.emptyForm(), draft: emptyDraft(), forgetBuyer: true }
}

function formTransition(state: Extract<PayoutState, { tag: 'form' }>, event: PayoutEvent, ctx: Context): PayoutState {
  switch (event.type) {
    case 'EDIT': {
      // The identity steps' EDIT names its `field`, the beneficiary's its `draft`.
      if ('field' in event || 'draft' in event) return state
      const { type: _, ...changed } = event
      const form = { ...state.form, ...changed }
      // Another currency: another rail list, and a forced rail that no longer applies is dropped.
      if (changed.currency !== undefined && changed.currency !== state.form.currency && changed.rail === undefined) form.rail = ''
      return { ...state, form, error: undefined }
    }
    case 'LIMITS':
      return { ...state, limits: event.limits }
    case 'SUBMIT': {
      if ('now' in event) return state
      const { form } = state
      const decimals = form.kind === 'crypto' ? ctx.source.decimals : 2
      const parsed = parseAmount(form.amount, decimals, ctx.decimalMark)
      if (!parsed.ok) return { ...state, error: { kind: 'amount', problem: parsed.problem } }
      const card = ctx.destination === 'card'
      if (!card && !/^[A-Z]{2}$/.test(form.country)) return { ...state, error: { kind: 'country' } }
      const rail = (!card && form.rail) || undefined
      // A fiat amount is checked against the rails' limits before any request.
      if (form.kind === 'fiat' && state.limits && !card) {
        const fits = checkAmount(parsed.value, limitsFor(state.limits, { currency: form.currency, direction: 'payout', rail }))
        if (!fits.ok) return { ...state, error: { kind: 'limits', check: fits } }
      }
      const ask: QuoteAsk = { kind: form.kind, amount: parsed.value, currency: form.currency, country: card ? '' : form.country, ...(rail ? { rail } : {}) }
      return { ...carried(state), tag: 'quoting', ask, requote: false }
    }
    default:
      return state
  }
}

function beneficiaryTransition(state: Extract<PayoutState, { tag: 'beneficiary' }>, event: PayoutEvent): PayoutState {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'EXPIRED':
      // Never under a request on its way: its answer (or quote_expired) decides.
      return idle ? requote(state) : state
    case 'EDIT': {
      if (!idle || !('draft' in event)) return state
      const { values, purpose } = event.draft
      const draft = { ...state.draft, values: { ...state.draft.values, ...values }, purpose: purpose ?? state.draft.purpose }
      // Typing in a field clears its own problem only.
      const problems = { ...state.problems }
      for (const name of [...Object.keys(values ?? {}), ...(purpose === undefined ? [] : ['purpose'])]) delete problems[name]
      return { ...state, draft, problems }
    }
    case 'BACK':
      return idle ? { ...carried(state), tag: 'quote', ask: state.ask, quote: state.quote, quotedAt: state.quotedAt, work: 'idle' } : state
    case 'SUBMIT': {
      if (!idle || !state.draft.schema || !('now' in event)) return state
      const problems = validateBeneficiary(beneficiarySchema(state.draft.schema), state.draft.values)
      const purpose = beneficiarySchema(state.draft.schema).purpose ? purposeProblem(state.draft.purpose) : undefined
      if (Object.keys(problems).length > 0 || purpose) return { ...state, problems: { ...problems, ...(purpose ? { purpose } : {}) }, problem: undefined }
      // An expired quote is priced again, never sent (the service would refuse it anyway).
      if (isExpired(state.quote.expiresAt, event.now)) return requote(state)
      return { ...state, problems: {}, problem: undefined, work: 'creating' }
    }
    case 'CREATE_FAILED':
      if (state.work !== 'creating') return state
      if (event.expired || event.requiresAction) return createFailed(state, event)
      return {
        ...state,
        work: 'idle',
        problem: event.problem,
        problems: event.field ? { ...state.problems, [event.field.name]: event.field.problem } : state.problems,
      }
    case 'INVALID':
      return state.work === 'creating' ? { ...state, work: 'idle', problems: event.problems, problem: undefined } : state
    case 'CREATED':
      return state.work === 'creating' ? created(state, event.record) : state
    default:
      return state
  }
}
/** The card page step of a card payout: opened once asked for; back from it, the payout is created once. */
function cardTransition(state: Extract<PayoutState, { tag: 'card' }>, event: PayoutEvent): PayoutState {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'EXPIRED':
      return idle ? requote(state) : state
    case 'SUBMIT':
      if (!idle || !('now' in event)) return state
      // An expired price is asked again before the card page, never after it.
      if (isExpired(state.quote.expiresAt, event.now)) return requote(state)
      // A session that came back `ok` and was not turned into a payout yet (a failed attempt) is used again.
      return { ...state, work: state.cardSession ? 'creating' : 'opening', problem: undefined, cancelled: false }
    case 'CARD_FAILED':
      return state.work === 'opening' ? { ...state, work: 'idle', problem: event.problem } : state
    case 'CREATE_FAILED':
      if (state.work !== 'creating') return state
      if (event.expired || event.requiresAction) return createFailed(state, event)
      return { ...state, work: 'idle', problem: event.problem }
    case 'CREATED':
      return state.work === 'creating' ? created(state, event.record) : state
    case 'BACK':
      return idle ? { ...carried(state), tag: 'quote', ask: state.ask, quote: state.quote, quotedAt: state.quotedAt, work: 'idle' } : state
    default:
      return state
  }
}

/**
 * The service refused to create: an expired price is asked again; a higher verification tier
 * (requires_action) sends the buyer back to the identity provider with the same details, then the
 * same request goes again (under its own reference). Nothing typed is lost on the way.
 */
function createFailed(state: Extract<PayoutState, { tag: 'beneficiary' | 'card' }>, event: Extract<PayoutEvent, { type: 'CREATE_FAILED' }>): PayoutState {
  if (!event.requiresAction) return requote(state)
  const { buyer, ask, quote, quotedAt } = state
  const pending: Pending = {
    form: state.form,
    limits: state.limits,
    draft: state.draft,
    ask,
    funder: state.funder,
    quoted: { quote, quotedAt },
    tier: 'higher',
    buyer,
    ...(state.cardSession ? { cardSession: state.cardSession } : {}),
  }
  return { tag: 'identity', form: { ...emptyApplicant, ...state.applicant, wallet: buyer.wallet }, rejectedCode: false, serverMessage: { problem: event.problem }, pending }
}

/** The payout exists: funded next, by the wallet connected before (connected again after a reload). */
function created(state: Extract<PayoutState, { tag: 'beneficiary' | 'card' }>, record: PayoutRecord): PayoutState {
  return { tag: 'funding', buyer: state.buyer, record, work: 'idle', ...(state.funder?.wallet ? { wallet: state.funder.wallet, sender: state.funder.sender } : {}) }
}

function fundingTransition(state: Extract<PayoutState, { tag: 'funding' }>, event: PayoutEvent, ctx: Context): PayoutState {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'WALLETS':
      return { ...state, wallets: event.wallets }
    case 'CONNECT':
      return idle ? { ...state, wallet: event.wallet, sender: undefined, work: 'connecting', problem: undefined } : state
    case 'CONNECTED':
      if (state.work !== 'connecting') return state
      // Only the wallet this payout's buyer verified sends its transfer.
      if (!sameAddress(state.record.wallet, event.sender)) return { ...state, work: 'idle', wallet: undefined, problem: otherWallet(state.record.wallet) }
      return { ...state, sender: event.sender, work: 'idle' }
    case 'CONFIRM':
      if (!idle || !state.wallet || !state.sender) return state
      // Asked before and never answered: only after the re-check found nothing, and only on the buyer's second confirmation.
      if (promptedUnanswered(state.record) && !(state.verify === 'clear' && event.confirmed)) return state
      if (isExpired(state.record.expiresAt, event.now)) return { ...state, problem: { kind: 'expired' } }
      return { ...state, work: 'checking', problem: undefined }
    case 'WORK':
      return idle ? state : { ...state, work: event.work }
    case 'PROMPTED':
      return idle ? state : { ...state, record: event.record, work: 'sending' }
    case 'BLOCKED': {
      const record = event.record ?? state.record
      // A prompt that ended without an answer we can trust: check again before any new send.
      const verify = event.asked && promptedUnanswered(record) ? undefined : state.verify
      return { ...state, record, verify, work: 'idle', problem: event.problem }
    }
    case 'RECHECK':
      // Not while a send is under way (its own checks decide); connecting a wallet meanwhile is fine.
      if (!(idle || state.work === 'connecting') || !promptedUnanswered(state.record) || state.verify === 'running') return state
      return { ...state, verify: 'running', problem: undefined }
    case 'VERIFIED':
      return state.verify === 'running' ? { ...state, verify: 'clear' } : state
    case 'VERIFY_FAILED':
      return state.verify === 'running' ? { ...state, verify: undefined, problem: event.problem } : state
    case 'SENT':
      // Past the point of no return: followed from here on, and never asked for again.
      return { tag: 'tracking', buyer: state.buyer, record: { ...state.record, txHash: event.txHash, sender: event.sender }, attempt: 0 }
    case 'ALREADY_FUNDED':
      return { tag: 'tracking', buyer: state.buyer, record: state.record, attempt: 0, alreadyFunded: true }
    case 'RESTART':
      // The unfunded payout is left to expire and forgotten here with its reference: a new request
      // is a new payout (a new address, a new reference). Not while a transfer may be on its way.
      if (!idle || (promptedUnanswered(state.record) && state.verify !== 'clear')) return state
      // The wallet connected stays connected for the new payout.
      return { tag: 'form', buyer: state.buyer, form: ctx.emptyForm(), draft: emptyDraft(), abandoned: state.record.id, ...(state.wallet && state.sender ? { funder: { wallet: state.wallet, sender: state.sender } } : {}) }
    case 'NOT_YOU':
      return idle && state.record.promptedAt === undefined ? notYou({ form: ctx.emptyForm(), draft: emptyDraft() }, ctx) : state
    default:
      return state
  }
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** Another wallet than the one that must fund the payout: said with the one it must be. */
const otherWallet = (wallet: string): FundingProblem => ({ kind: 'check', problem: { key: 'payout.otherWallet', code: 'payout_wallet', detail: wallet } })

function toForm(state: Base, error?: FormError): PayoutState {
  return { ...carried(state), tag: 'form', error }
}

function requote(state: QuotedBase, refreshed = true): PayoutState {
  return { ...carried(state), tag: 'quoting', ask: state.ask, requote: refreshed }
}

/**
 * The flow's step for the header: the price, the wallet, who the buyer is (only when not known),
 * the beneficiary, the transfer and its status. `verified`: the identity steps are part of this payout.
 */
export function stepOf(state: PayoutState, verified: boolean): Step {
  const of = verified ? 5 : 4
  if (isIdentityState(state)) return { step: 3, of }
  const after = verified ? 1 : 0
  switch (state.tag) {
    case 'form':
    case 'quoting':
    case 'quote':
      return { step: 1, of }
    case 'connect':
      return { step: 2, of }
    case 'beneficiary':
    case 'card':
      return { step: 3 + after, of }
    default:
      return { step: 4 + after, of }
  }
}
