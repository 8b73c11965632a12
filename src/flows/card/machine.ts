// The card payment as data: a pure transition function. No I/O, no timers, no DOM.
import type { CardRate } from '../../api/cardRate'
import type { CardLimits, CardQuote } from '../../api/schemas'
import { type AmountProblem, localeAmount, parseAmount } from '../../lib/decimal'
import type { RedirectProblem } from '../../lib/redirect'
import { isCardFinal } from '../../lib/status/card'
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import { type Priced, type QuoteEvent, isExpired, priced, requoteOn } from '../../kernel/quote'
import type { Problem, Step, Work } from '../../kernel/types'
import { definedOnly, limitsFor, outside } from './window'

/** `asset`: the crypto the card buys, once known (the `cardCrypto` option, or the first quote's). */
export type CardForm = { currency: string; amount: string; address: string; asset?: string }

/** What is persisted once the purchase exists: enough to follow it, nothing personal. */
export type Purchase = {
  id: string
  environment: string
  currency: string
  total: string
  cryptoAmount: string
  cryptoCurrency: string
  createdAt: number
  /**
   * The purchase's card page, as the service answered it: a page closed before paying is opened
   * again from here (checked against the registry's card hosts each time it is followed).
   */
  redirectUrl?: string
}

export type CardStatusView = {
  status: string
  environment: string
  cryptoAmount?: string
  cryptoCurrency?: string
  txHash?: string
  reason?: string
}

export type CardFormError = { kind: 'amount'; problem: AmountProblem } | { kind: 'limits'; min: string; max: string } | { kind: 'api'; problem: Problem }

/** An indicative price for what the buyer typed (GET /card/rate): shown, never reserved. */
export type IndicativeRate = { currency: string; amount: string; rate: CardRate }

export type CardState =
  /** `left`: the purchase the buyer started again from (its record is forgotten, if still the kept one). */
  | { tag: 'form'; form: CardForm; limits?: CardLimits; error?: CardFormError; rate?: IndicativeRate; left?: string }
  | { tag: 'quoting'; form: CardForm; limits?: CardLimits; amount: string; requote: boolean }
  | ({
      tag: 'quote'
      form: CardForm
      limits?: CardLimits
      amount: string
      /** `purchasing`: the KYC token and the purchase are being created. */
      work: Work<'purchasing'>
      addressError?: boolean
      problem?: Problem
    } & Priced<CardQuote>)
  | { tag: 'redirect'; purchase: Purchase; redirectUrl: string; problem?: RedirectProblem }
  | ({ tag: 'tracking'; purchase: Purchase; status?: CardStatusView } & Followed)
  | { tag: 'result'; purchase: Purchase; status: CardStatusView }

export type CardEvent =
  | { type: 'EDIT'; currency?: string; amount?: string; address?: string }
  | { type: 'LIMITS'; limits: CardLimits }
  /** `amount`: the field's text it was asked for (shown only while the field still says that). */
  | { type: 'RATE'; currency: string; amount: string; rate: CardRate }
  | { type: 'SUBMIT' }
  | QuoteEvent<CardQuote>
  | { type: 'BACK' }
  /** Go ahead from the quote: `now` judges its expiry. */
  | { type: 'CONFIRM'; now: number }
  | { type: 'PURCHASE_FAILED'; problem: Problem }
  | { type: 'PURCHASED'; purchase: Purchase; redirectUrl: string }
  | { type: 'REDIRECT_REFUSED'; problem: RedirectProblem }
  | { type: 'RETURNED' }
  | { type: 'TRACK'; status: CardStatusView }
  | FollowEvent
  /** Waiting for the payment: open this purchase's card page again (it was closed before paying). */
  | { type: 'REOPEN' }
  | { type: 'RESTART' }

/** What the machine is given: how the buyer's locale writes the decimal mark. */
export type Context = { decimalMark: '.' | ',' }

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export function initialState(form: CardForm, resume?: Purchase): CardState {
  return resume ? { tag: 'tracking', purchase: resume, attempt: 0 } : { tag: 'form', form }
}

export function transition(state: CardState, event: CardEvent, ctx: Context): CardState {
  switch (state.tag) {
    case 'form':
      return formTransition(state, event, ctx)

    case 'quoting':
      return quotingTransition(state, event)

    case 'quote':
      return quoteTransition(state, event)

    case 'redirect':
      if (event.type === 'REDIRECT_REFUSED') return { ...state, problem: event.problem }
      if (event.type === 'RETURNED') return { tag: 'tracking', purchase: state.purchase, attempt: 0 }
      return state

    case 'tracking':
      if (event.type === 'TRACK') {
        return isCardFinal(event.status.status)
          ? { tag: 'result', purchase: state.purchase, status: event.status }
          : { ...tracked(state), status: event.status }
      }
      if (event.type === 'REOPEN' || event.type === 'RESTART') return wayOn(state, event.type, ctx)
      return isFollowEvent(event) ? follow(state, event) : state

    case 'result':
      return event.type === 'RESTART'
        ? { tag: 'form', form: { currency: state.purchase.currency, amount: '', address: '', asset: state.purchase.cryptoCurrency } }
        : state
  }
}

/**
 * Whether the buyer may leave the wait for their payment: only while the service still says
 * `pending` (nothing paid on the card page yet). Reopening needs the page's address.
 */
export function waysOn(state: CardState): { reopen: boolean; restart: boolean } {
  const waiting = state.tag === 'tracking' && state.status?.status === 'pending'
  return { reopen: waiting && !!state.purchase.redirectUrl, restart: waiting }
}

/**
 * A card page closed before paying: the same purchase's page again (past the point of no return, it
 * stays this purchase), or a new purchase from the same amount (a new KYC token and a new page).
 */
function wayOn(state: Extract<CardState, { tag: 'tracking' }>, way: 'REOPEN' | 'RESTART', ctx: Context): CardState {
  const ways = waysOn(state)
  const { purchase } = state
  if (way === 'REOPEN') return ways.reopen && purchase.redirectUrl ? { tag: 'redirect', purchase, redirectUrl: purchase.redirectUrl } : state
  if (!ways.restart) return state
  const form = { currency: purchase.currency, amount: localeAmount(purchase.total, ctx.decimalMark), address: '', asset: purchase.cryptoCurrency }
  return { tag: 'form', form, left: purchase.id }
}

/** Which step of four the header shows. */
export function stepOf(state: CardState): Step {
  const step = state.tag === 'form' || state.tag === 'quoting' ? 1 : state.tag === 'quote' ? 2 : state.tag === 'redirect' ? 3 : 4
  return { step, of: 4 }
}

function formTransition(state: Extract<CardState, { tag: 'form' }>, event: CardEvent, ctx: Context): CardState {
  switch (event.type) {
    case 'EDIT': {
      const currencyChanged = event.currency !== undefined && event.currency !== state.form.currency
      return { ...state, form: { ...state.form, ...definedOnly(event) }, limits: currencyChanged ? undefined : state.limits, error: undefined }
    }
    case 'LIMITS': {
      if (!limitsFor(state.form, event.limits)) return state
      // The service refused before the limits came (its words): the window says what to do.
      const typed = parseAmount(state.form.amount, 2, ctx.decimalMark)
      const refused = state.error?.kind === 'api' && typed.ok && outside(event.limits, typed.value)
      return { ...state, limits: event.limits, error: refused ? { kind: 'limits', min: event.limits.min, max: event.limits.max } : state.error }
    }
    case 'RATE':
      return event.currency === state.form.currency && event.amount === state.form.amount
        ? { ...state, rate: { currency: event.currency, amount: event.amount, rate: event.rate } }
        : state
    case 'SUBMIT': {
      // Card totals are in the currency's minor units at most.
      const parsed = parseAmount(state.form.amount, 2, ctx.decimalMark)
      if (!parsed.ok) return { ...state, error: { kind: 'amount', problem: parsed.problem } }
      const { limits } = state
      if (limits && outside(limits, parsed.value)) return { ...state, error: { kind: 'limits', min: limits.min, max: limits.max } }
      return { tag: 'quoting', form: state.form, limits, amount: parsed.value, requote: false }
    }
    default:
      return state
  }
}

function quotingTransition(state: Extract<CardState, { tag: 'quoting' }>, event: CardEvent): CardState {
  switch (event.type) {
    // The first control never waits for the limits: ones that come after the submit still judge it.
    case 'LIMITS': {
      if (!limitsFor(state.form, event.limits)) return state
      const { min, max } = event.limits
      return outside(event.limits, state.amount)
        ? { tag: 'form', form: state.form, limits: event.limits, error: { kind: 'limits', min, max } }
        : { ...state, limits: event.limits }
    }
    case 'QUOTED':
      // A new price is always shown before the buyer goes on, never paid under them.
      return {
        tag: 'quote',
        // The quote names the asset: the contract gives no default one.
        form: { ...state.form, asset: event.quote.cryptoCurrency },
        limits: state.limits,
        amount: state.amount,
        work: 'idle',
        ...priced(event, state.requote),
      }
    case 'QUOTE_FAILED':
      return { tag: 'form', form: state.form, limits: state.limits, error: { kind: 'api', problem: event.problem } }
    case 'BACK':
      return { tag: 'form', form: state.form, limits: state.limits }
    default:
      return state
  }
}

function quoteTransition(state: Extract<CardState, { tag: 'quote' }>, event: CardEvent): CardState {
  const idle = state.work === 'idle'
  const requoted = requoteOn(state, event, requote)
  if (requoted) return requoted
  switch (event.type) {
    case 'EDIT':
      return event.address === undefined || !idle
        ? state
        : { ...state, form: { ...state.form, address: event.address }, addressError: false, problem: undefined }
    case 'BACK':
      return idle ? { tag: 'form', form: state.form, limits: state.limits } : state
    case 'CONFIRM':
      if (!idle) return state
      if (!ADDRESS.test(state.form.address.trim())) return { ...state, addressError: true }
      // A quote past its expiry is priced again before the buyer goes on.
      if (isExpired(state.quote.expiresAt, event.now)) return requote(state)
      return { ...state, work: 'purchasing', problem: undefined, refreshed: false }
    case 'PURCHASE_FAILED':
      return { ...state, work: 'idle', problem: event.problem }
    case 'PURCHASED':
      return { tag: 'redirect', purchase: event.purchase, redirectUrl: event.redirectUrl }
    default:
      return state
  }
}

function requote(state: Extract<CardState, { tag: 'quote' }>, refreshed = true): CardState {
  return { tag: 'quoting', form: state.form, limits: state.limits, amount: state.amount, requote: refreshed }
}
