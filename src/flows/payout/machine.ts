// The payout as data: a pure transition. No I/O, no timers, no DOM.
// Price first: form → quoting → quote (anonymous), the machine's own stages; then its sub-machines,
// each speaking its own events (state.ts): funding.ts connects the wallet that funds it (EIP-6963);
// the identity steps (identitySteps.ts) verify a buyer the service does not know, with that wallet;
// destination.ts names where the fiat lands (the bank's beneficiary or the card page, as the flow's
// entry chose); funding.ts then sends the one transfer and follows the payout to its end. Where a
// page (re)load starts is resume.ts. The quote expires into a new price, never into a payout.
import { isIdentityState } from '../../identity/machine'
import { isExpired, priced, requoteOn } from '../../kernel/quote'
import type { Step } from '../../kernel/types'
import { parseAmount } from '../../lib/decimal'
import { checkAmount, limitsFor, pickLimit } from '../../lib/limits'
import { type Base, type FormError, type PayoutForm, type QuoteAsk, type QuotedBase, carried, emptyDraft, quoted } from './base'
import type { DestinationExit, DestinationState } from './destination'
import { type FundingExit, type FundingStates, connectOf, fundingOf, fundingTransition } from './funding'
import { type IdentityExit, higherTier, identityStep, verifyBuyer } from './identitySteps'
import type { Context, FormState, PayoutEvent, PayoutIdentity, PayoutState, QuoteState, QuotingState } from './state'

export type { Context, PayoutEvent, PayoutState, StateOf } from './state'
export { initialState } from './resume'

type PriceEvent = Exclude<PayoutEvent, { type: 'IDENTITY' | 'DESTINATION' | 'FUNDING' }>

export function transition(state: PayoutState, event: PayoutEvent, ctx: Context): PayoutState {
  switch (event.type) {
    case 'IDENTITY':
      return isIdentityState(state) ? afterIdentity(identityStep(state, event.event, ctx), ctx) : state
    case 'DESTINATION':
      return isDestination(state) ? afterDestination(state, ctx.destination.transition(state, event.event)) : state
    case 'FUNDING':
      return isFunding(state) ? afterFunding(fundingTransition(state, event.event, ctx.linkWallet), ctx) : state
    default:
      return price(state, event, ctx)
  }
}

const isDestination = (state: PayoutState): state is DestinationState => state.tag === 'beneficiary' || state.tag === 'card'
const isFunding = (state: PayoutState): state is FundingStates => ['connect', 'funding', 'tracking', 'result'].includes(state.tag)

/** The price: the form, its quote, and the kernel's expiry in every stage that holds a price (a new price while the buyer is idle, never mid-way). */
function price(state: PayoutState, event: PriceEvent, ctx: Context): PayoutState {
  switch (state.tag) {
    case 'form':
      return event.type === 'NOT_YOU' ? notYou(state.form) : formTransition(state, event, ctx)
    case 'quoting':
      return quotingTransition(state, event)
    case 'quote':
      return quoteTransition(state, event, ctx)
    case 'connect':
    case 'beneficiary':
    case 'card':
      return requoteOn(state, event, requote) ?? state
    default:
      return state
  }
}

function formTransition(state: FormState, event: PriceEvent, ctx: Context): PayoutState {
  switch (event.type) {
    case 'EDIT': {
      const { type: _, ...changed } = event
      const form = { ...state.form, ...changed }
      // Another currency: another rail list, and a forced rail that no longer applies is dropped.
      if (changed.currency !== undefined && changed.currency !== state.form.currency && changed.rail === undefined) form.rail = ''
      // Another unit (what arrives ↔ what is sent): the number typed meant the other one, so it goes; never reread as this one.
      if (changed.kind !== undefined && changed.kind !== state.form.kind && changed.amount === undefined) form.amount = ''
      return { ...state, form, error: undefined }
    }
    case 'LIMITS': {
      // Where the form starts, once known: only over what the buyer has not chosen yet.
      const first = ctx.emptyForm()
      const untouched = state.form.currency === first.currency && state.form.country === first.country
      const form = event.route && untouched ? { ...state.form, currency: event.route.currency, country: event.route.country, rail: '' } : state.form
      return { ...state, form, limits: event.limits }
    }
    case 'SUBMIT': {
      const asked = askOf(state, ctx)
      return asked.ok ? { ...carried(state), tag: 'quoting', ask: asked.ask, requote: false } : { ...state, error: asked.error }
    }
    default:
      return state
  }
}

/** The quote request the form makes, checked before any request: the amount in the buyer's locale, the country, a fiat amount against the rails' limits. */
function askOf({ form, limits }: FormState, ctx: Context): { ok: true; ask: QuoteAsk } | { ok: false; error: FormError } {
  const decimals = form.kind === 'crypto' ? ctx.source.decimals : 2
  const parsed = parseAmount(form.amount, decimals, ctx.decimalMark)
  if (!parsed.ok) return { ok: false, error: { kind: 'amount', problem: parsed.problem } }
  const card = ctx.destination.kind === 'card'
  if (!card && !/^[A-Z]{2}$/.test(form.country)) return { ok: false, error: { kind: 'country' } }
  const rail = (!card && form.rail) || undefined
  if (form.kind === 'fiat' && limits && !card) {
    const fits = checkAmount(parsed.value, limitsFor(limits, { currency: form.currency, direction: 'payout', rail }))
    if (!fits.ok) return { ok: false, error: { kind: 'limits', check: fits } }
  }
  return { ok: true, ask: { kind: form.kind, amount: parsed.value, currency: form.currency, country: card ? '' : form.country, ...(rail ? { rail } : {}) } }
}

function quotingTransition(state: QuotingState, event: PriceEvent): PayoutState {
  switch (event.type) {
    case 'QUOTED': {
      const quote = event.quote
      // The fiat that arrives must fit the rail the service chose (GET /limits); said before anything is created.
      const entry = state.limits && 'rail' in quote && pickLimit(state.limits, { currency: state.ask.currency, direction: 'payout', rail: quote.rail })
      const fits = entry ? checkAmount(quote.fiatAmount, entry) : ({ ok: true } as const)
      if (!fits.ok) return toForm(state, { kind: 'limits', check: fits })
      return { ...carried(state), tag: 'quote', ask: state.ask, work: 'idle', ...priced(event, state.requote) }
    }
    case 'QUOTE_FAILED':
      return toForm(state, { kind: 'api', problem: event.problem })
    case 'QUOTE_REJECTED':
      return toForm(state, { kind: 'ask', rule: event.rule })
    case 'BACK':
      return toForm(state)
    default:
      return state
  }
}

function quoteTransition(state: QuoteState, event: PriceEvent, ctx: Context): PayoutState {
  const requoted = requoteOn(state, event, requote)
  if (requoted) return requoted
  if (event.type === 'BACK') return toForm(state)
  if (event.type !== 'CONFIRM') return state
  return isExpired(state.quote.expiresAt, event.now) || state.stale ? requote(state) : onward(state, ctx)
}

/**
 * After the price: the first thing the payout still lacks. The wallet that funds it; then who the
 * buyer is (the identity steps, with that wallet, only for a buyer the service does not know);
 * then the destination.
 */
function onward(state: QuotedBase, ctx: Context): PayoutState {
  const { funder, buyer } = state
  if (!funder) return connectOf(state)
  if (!buyer) return verifyBuyer(state, funder, ctx)
  return ctx.destination.enter({ ...state, buyer })
}

function afterIdentity(next: PayoutIdentity | FormState | QuotingState | QuoteState | IdentityExit, ctx: Context): PayoutState {
  return next.tag === 'onward' ? onward(next.quote, ctx) : next
}

function afterDestination(state: DestinationState, next: DestinationState | DestinationExit): PayoutState {
  switch (next.tag) {
    case 'back':
      return backToQuote(state)
    case 'requote':
      return requote(state)
    case 'created':
      return fundingOf(state.buyer, next.record, state.funder)
    case 'higherTier':
      return higherTier(state, next.problem)
    default:
      return next
  }
}

function afterFunding(next: FundingStates | FundingExit, ctx: Context): PayoutState {
  switch (next.tag) {
    case 'connected':
      return onward(next.priced, ctx)
    case 'back':
      return backToQuote(next.priced)
    case 'restart': {
      const { buyer, abandoned, funder } = next
      return { tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft(), ...(abandoned ? { abandoned } : {}), ...(funder ? { funder } : {}) }
    }
    case 'notYou':
      return notYou(ctx.emptyForm())
    default:
      return next
  }
}

/** "Not you?": the stored buyer and every bank record of this device go; the price stays anonymous. */
const notYou = (form: PayoutForm): FormState => ({ tag: 'form', form, draft: emptyDraft(), forgetBuyer: true })

const toForm = (state: Base, error?: FormError): FormState => ({ ...carried(state), tag: 'form', error })
const requote = (state: QuotedBase, refreshed = true): QuotingState => ({ ...carried(state), tag: 'quoting', ask: state.ask, requote: refreshed })
const backToQuote = (state: QuotedBase): QuoteState => ({ ...carried(state), tag: 'quote', ...quoted(state), work: 'idle' })
