// The one-off bank deposit as data: a pure transition function. No I/O, no timers, no DOM.
// The identity steps (src/identity) for a buyer the service does not know yet, then the form (where
// to pay from, how much, checked against the rail's limits) → tracking the deposit through its
// statuses → the result (settled or returned). `expired` is followed, never an end: money sent
// before the deadline still arrives. `starting`: a buyer the service does not know, until the flow
// has read where their identity steps begin (that code and the steps' screens are fetched for them only).
// A higher verification tier asked of the deposit (422 requires_action) sends the buyer through the
// identity steps again and back to the same request (higherTier.ts, handed in by the Context: the
// flow fetches it with the effects and the identity steps, which alone lead into it).
import { type BuyerAccount, type IdentityContext, type IdentityEvent, identityTransition, isIdentityEvent, isIdentityState } from '../../identity/machine'
import type { Pending, TierIdentity } from './higherTier'
import { parseAmount } from '../../lib/decimal'
import { checkAmount, limitsFor } from '../../lib/limits'
import type { DepositForm, FormState, ReferenceData, StatusView, StoredDeposit } from './state'
import { isBankDepositFinal, offersBankDeposit } from '../../lib/status/bankDeposit'
import type { Route } from '../../lib/routeDefaults'
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import type { Problem } from '../../kernel/types'

export type { AmountError, DepositForm, FormState, ReferenceData, StatusView, StoredDeposit } from './state'

export type BankDepositState =
  /** `pending`: a higher tier was asked of this deposit; the identity steps go on where they were. */
  | { tag: 'starting'; pending?: Pending }
  | TierIdentity
  | FormState
  | ({ tag: 'tracking'; deposit: StoredDeposit; status: StatusView; resumed?: boolean } & Followed)
  | { tag: 'result'; deposit: StoredDeposit; status: StatusView }

/** The form's EDIT names no `field`: one that does is the identity form's. */
type FormEdit = { type: 'EDIT'; country?: string; currency?: string; amount?: string }

export type BankDepositEvent =
  | { type: 'IDENTITY_READY'; identity: TierIdentity }
  | IdentityEvent
  | FormEdit
  /** `route`: where the form starts unless the buyer picked (reference.ts startRoute); null: no route, the buyer chooses; absent: the form as it is. */
  | { type: 'REFERENCE'; data: ReferenceData; route?: Route | null }
  | { type: 'REFERENCE_FAILED'; problem: Problem }
  | { type: 'RELOAD' }
  | { type: 'SUBMIT' }
  | { type: 'CREATED'; deposit: StoredDeposit; status: StatusView }
  /** `requiresAction`: the service asks a higher verification tier; the same request goes again once verified. */
  | { type: 'CREATE_FAILED'; problem: Problem; pinned?: boolean; requiresAction?: boolean }
  | { type: 'TRACK'; status: StatusView }
  | FollowEvent
  /** A new deposit: for the buyer the flow knows (the flow entry reads the account). */
  | { type: 'RESTART'; account: BuyerAccount; form: DepositForm }

export type Context = {
  decimalMark: '.' | ','
  /** The fiat currencies this embedding takes. */
  currencies: readonly string[]
  /** The form a new deposit starts from (the partner's amount, the first currency, the buyer's country). */
  form: (country?: string) => DepositForm
  /** The higher tier's detour (higherTier.ts), once fetched; without it, requires_action stays on the form as any refusal. */
  tier?: typeof import('./higherTier')
} & IdentityContext

/** The form for a buyer the service knows; `pinned`: a partner's reference already sent fixes what it asks. */
export function formState(account: BuyerAccount, form: DepositForm, pinned?: boolean): FormState {
  return { tag: 'form', account, form, loads: 0, work: 'idle', pinned }
}

/**
 * Where the flow starts: a deposit kept in storage at its last known status, else the identity
 * steps of a higher tier this buyer was asked for (once the flow has read where they are), else the
 * form for a buyer the service knows, else the identity steps (once the flow has read where they begin).
 */
export function initialState(
  kept?: { deposit: StoredDeposit; status: StatusView },
  known?: { account: BuyerAccount; form: DepositForm; pinned?: boolean },
  pending?: Pending,
): BankDepositState {
  if (kept) return ended(kept.deposit, kept.status) ?? { tag: 'tracking', deposit: kept.deposit, status: kept.status, attempt: 0, resumed: true }
  // Only for the buyer it was asked of: never another's (a shared device, a link signed for another wallet).
  if (known && pending && sameBuyer(pending.buyer, known.account)) return { tag: 'starting', pending }
  return known ? formState(known.account, known.form, known.pinned) : { tag: 'starting' }
}

const sameBuyer = (a: BuyerAccount, b: BuyerAccount) =>
  a.accountId === b.accountId && a.walletId === b.walletId && a.wallet.toLowerCase() === b.wallet.toLowerCase()

/** The country's currency, when the service names it and this embedding takes it. */
export function currencyOf(data: ReferenceData | undefined, country: string, currencies: readonly string[]): string | undefined {
  const currency = data?.methods.countries[country]?.currency
  return currency && currencies.includes(currency) ? currency : undefined
}

export function transition(state: BankDepositState, event: BankDepositEvent, ctx: Context): BankDepositState {
  if (state.tag === 'starting') {
    if (event.type !== 'IDENTITY_READY') return state
    return state.pending && ctx.tier ? ctx.tier.resumeTier(event.identity, state.pending) : event.identity
  }
  if (isIdentityState(state)) {
    if (!isIdentityEvent(event) || isFormEdit(event)) return state
    const next = identityTransition(state, event, ctx)
    if (state.pending && ctx.tier) return ctx.tier.tierStep({ ...state, pending: state.pending }, event, next)
    // Known to the service now: the country they gave is where their bank account most likely is.
    return next.tag === 'onboarded' ? { ...formState(next.account, ctx.form(state.form.country || undefined)), applicant: state.form } : next
  }
  switch (state.tag) {
    case 'form':
      return formTransition(state, event, ctx)

    case 'tracking':
      switch (event.type) {
        case 'TRACK':
          if (event.status.id !== state.deposit.id) return state
          return ended(state.deposit, event.status) ?? { ...tracked(state), status: event.status }
        case 'RESTART':
          // Only from expired details: a deposit that may still move money is never dropped.
          return state.status.status === 'expired' ? formState(event.account, event.form) : state
        default:
          return isFollowEvent(event) ? follow(state, event) : state
      }

    case 'result':
      return event.type === 'RESTART' ? formState(event.account, event.form) : state
  }
}

const isFormEdit = (event: BankDepositEvent): event is FormEdit => event.type === 'EDIT' && !('field' in event)

/** The result, when nothing moves after this status. */
function ended(deposit: StoredDeposit, status: StatusView): BankDepositState | undefined {
  return isBankDepositFinal(status.status) ? { tag: 'result', deposit, status } : undefined
}

function formTransition(state: FormState, event: BankDepositEvent, ctx: Context): BankDepositState {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'EDIT': {
      if (!idle || !isFormEdit(event)) return state
      const form = { ...state.form }
      const picked = state.picked || event.country !== undefined
      if (event.country !== undefined) {
        form.country = event.country
        // The country's own currency, where the service names one this embedding takes.
        if (!state.pinned) form.currency = currencyOf(state.reference, event.country, ctx.currencies) ?? form.currency
      }
      if (!state.pinned && event.currency !== undefined) form.currency = event.currency
      if (!state.pinned && event.amount !== undefined) form.amount = event.amount
      return { ...state, form, picked, error: undefined, problem: undefined, submitted: undefined }
    }
    case 'REFERENCE': {
      // A default opens on a route that exists (in the pinned currency, for a pinned retry): the one
      // rule of lib/routeDefaults.ts, applied where the data arrived (reference.ts startRoute).
      const kept = state.picked || event.route === undefined
      const country = kept ? state.form.country : (event.route?.country ?? '')
      const currency = state.pinned ? undefined : kept ? currencyOf(event.data, country, ctx.currencies) : event.route?.currency
      const next: FormState = {
        ...state,
        reference: event.data,
        loadProblem: undefined,
        submitted: undefined,
        form: { ...state.form, country, currency: currency ?? state.form.currency },
      }
      // The buyer's earlier "Get bank details" is answered now, checked against what arrived (not
      // if another country or its own currency replaced what they saw: the buyer sees it first).
      const same = next.form.currency === state.form.currency && next.form.country === state.form.country
      return state.submitted && same ? submit(next, ctx) : next
    }
    case 'REFERENCE_FAILED':
      return { ...state, loadProblem: event.problem, submitted: undefined }
    case 'RELOAD':
      return state.loadProblem ? { ...state, loadProblem: undefined, loads: state.loads + 1 } : state
    case 'SUBMIT':
      return idle ? submit(state, ctx) : state
    case 'CREATED':
      if (state.work !== 'creating') return state
      return ended(event.deposit, event.status) ?? { tag: 'tracking', deposit: event.deposit, status: event.status, attempt: 0 }
    case 'CREATE_FAILED':
      if (state.work !== 'creating') return state
      // A higher verification tier: nothing was created; verified, the same request goes again.
      if (event.requiresAction && ctx.tier) return ctx.tier.higherTier(state, event.problem, event.pinned)
      return { ...state, work: 'idle', problem: event.problem, pinned: state.pinned || event.pinned }
    default:
      return state
  }
}

/** "Get bank details": the country, the amount, then the rail's limits, before any request. */
function submit(state: FormState, ctx: Context): FormState {
  const { country, currency, amount } = state.form
  if (!country) return { ...state, error: { kind: 'country' } }
  if (state.reference && !offersBankDeposit(state.reference.methods, country)) return state
  // Bank transfers are in the currency's minor units at most.
  const parsed = parseAmount(amount, 2, ctx.decimalMark)
  if (!parsed.ok) return { ...state, error: { kind: 'amount', problem: parsed.problem } }
  // Whether the country has the one-off deposit, and its limits: once the service has said.
  if (!state.reference) return { ...state, error: undefined, problem: undefined, submitted: true }
  // Before any request: the rail's limits for paying in this currency (null is no limit).
  const check = checkAmount(parsed.value, limitsFor(state.reference.limits, { currency, direction: 'pay_in' }))
  if (!check.ok) return { ...state, error: { kind: 'limit', check } }
  return { ...state, error: undefined, problem: undefined, checked: parsed.value, work: 'creating' }
}
