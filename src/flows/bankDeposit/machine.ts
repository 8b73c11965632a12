// The one-off bank deposit as data: a pure transition function. No I/O, no timers, no DOM.
// amount (where to pay from, how much, checked against the rail's limits) → following the
// deposit through its statuses → done (settled or returned). `expired` is followed, never an end:
// money sent before the deadline still arrives.
import { type BankDeposit, type BankDepositDetails, type BankDepositStatus, bankDepositFinal } from '../../api/bankDeposit'
import { type LimitEntry, type PaymentMethods, offersBankDeposit } from '../../api/reference'
import type { BuyerAccount } from '../../identity/account'
import type { IdentityEvent, IdentityState, Onboarded } from '../../identity/machine'
import { type AmountProblem, parseAmount } from '../../lib/decimal'
import { type LimitCheck, checkAmount, limitsFor } from '../../lib/limits'
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import type { Problem, Work } from '../../kernel/types'

export type DepositForm = { country: string; currency: string; amount: string }

/** What the service says about paying here: where the one-off deposit is offered, and the rails' limits. */
export type ReferenceData = { methods: PaymentMethods; limits: LimitEntry[] }

export type AmountError =
  | { kind: 'country' }
  | { kind: 'amount'; problem: AmountProblem }
  | { kind: 'limit'; check: Extract<LimitCheck, { ok: false }> }

/** What is kept once the deposit exists: enough to show its details and follow it, nothing personal. */
export type StoredDeposit = {
  id: string
  rail: string
  expiresAt: string
  details: BankDepositDetails
  /** What the buyer asked to send (the details are for this amount). */
  currency: string
  amount: string
  /** Where the buyer said their bank account is: a new deposit starts there. */
  country?: string
  /** Whose it is (the wallet it settles to): resumed only for that buyer. */
  wallet: string
  createdAt: number
}

export type StatusView = Omit<BankDepositStatus, 'updatedAt'>

export type AmountState = {
  tag: 'amount'
  account: BuyerAccount
  form: DepositForm
  reference?: ReferenceData
  /** Loading the reference data failed; RELOAD tries again. */
  loadProblem?: Problem
  loads: number
  error?: AmountError
  /** The create request failed (the buyer may retry: the same reference gets the same deposit). */
  problem?: Problem
  /** The amount as sent (a decimal string with a dot), once checked. */
  checked?: string
  /** A partner's reference already sent once: a retry must ask for the same amount, so it is fixed. */
  pinned?: boolean
  /** Asked before the ways to pay and their limits came: checked (and sent) once they do. */
  submitted?: boolean
  work: Work<'creating'>
}

export type BankDepositState =
  | AmountState
  | ({ tag: 'following'; deposit: StoredDeposit; status: StatusView; resumed?: boolean } & Followed)
  | { tag: 'done'; deposit: StoredDeposit; status: StatusView }

export type BankDepositEvent =
  | { type: 'EDIT'; country?: string; currency?: string; amount?: string }
  | { type: 'REFERENCE'; data: ReferenceData }
  | { type: 'REFERENCE_FAILED'; problem: Problem }
  | { type: 'RELOAD' }
  | { type: 'SUBMIT' }
  | { type: 'CREATED'; deposit: StoredDeposit; status: StatusView }
  | { type: 'CREATE_FAILED'; problem: Problem; pinned?: boolean }
  | { type: 'TRACK'; status: StatusView }
  | FollowEvent
  /** A new deposit: for the buyer the flow knows (the flow entry reads the account). */
  | { type: 'RESTART'; account: BuyerAccount; form: DepositForm }

export type BankDepositContext = { decimalMark: '.' | ','; currencies: readonly string[] }

export const isFinalStatus = (status: string) => (bankDepositFinal as readonly string[]).includes(status)

export function amountState(account: BuyerAccount, form: DepositForm, pinned?: boolean): AmountState {
  return { tag: 'amount', account, form, loads: 0, work: 'idle', pinned }
}

/** Where a deposit kept in storage resumes: at its last known status. */
export function resumeState(deposit: StoredDeposit, status: StatusView): BankDepositState {
  return isFinalStatus(status.status) ? { tag: 'done', deposit, status } : { tag: 'following', deposit, status, attempt: 0, resumed: true }
}

/** The record kept once the service answered the create request. */
export function storedDeposit(created: BankDeposit, state: Pick<AmountState, 'form' | 'account'>, amount: string, now: number): StoredDeposit {
  const { currency, country } = state.form
  return { id: created.id, rail: created.rail, expiresAt: created.expiresAt, details: created.details, currency, amount, country, wallet: state.account.wallet, createdAt: now }
}

/** The country's currency, when the service names it and this embedding takes it. */
export function currencyOf(data: ReferenceData | undefined, country: string, currencies: readonly string[]): string | undefined {
  const currency = data?.methods.countries[country]?.currency
  return currency && currencies.includes(currency) ? currency : undefined
}

export function bankDepositTransition(state: BankDepositState, event: BankDepositEvent, ctx: BankDepositContext): BankDepositState {
  switch (state.tag) {
    case 'amount':
      return amountTransition(state, event, ctx)

    case 'following':
      switch (event.type) {
        case 'TRACK':
          if (event.status.id !== state.deposit.id) return state
          return isFinalStatus(event.status.status)
            ? { tag: 'done', deposit: state.deposit, status: event.status }
            : { ...tracked(state), status: event.status }
        case 'RESTART':
          // Only from expired details: a deposit that may still move money is never dropped.
          return state.status.status === 'expired' ? amountState(event.account, event.form) : state
        default:
          return isFollowEvent(event) ? follow(state, event) : state
      }

    case 'done':
      return event.type === 'RESTART' ? amountState(event.account, event.form) : state
  }
}

function amountTransition(state: AmountState, event: BankDepositEvent, ctx: BankDepositContext): BankDepositState {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'EDIT': {
      if (!idle) return state
      const form = { ...state.form }
      if (event.country !== undefined) {
        form.country = event.country
        // The country's own currency, where the service names one this embedding takes.
        if (!state.pinned) form.currency = currencyOf(state.reference, event.country, ctx.currencies) ?? form.currency
      }
      if (!state.pinned && event.currency !== undefined) form.currency = event.currency
      if (!state.pinned && event.amount !== undefined) form.amount = event.amount
      return { ...state, form, error: undefined, problem: undefined, submitted: undefined }
    }
    case 'REFERENCE': {
      const currency = state.pinned ? undefined : currencyOf(event.data, state.form.country, ctx.currencies)
      const next: AmountState = { ...state, reference: event.data, loadProblem: undefined, submitted: undefined, form: currency ? { ...state.form, currency } : state.form }
      // The buyer's earlier "Get bank details" is answered now, checked against what arrived (not
      // if the country's own currency replaced the one the amount was typed in: the buyer sees it first).
      return state.submitted && next.form.currency === state.form.currency ? amountTransition(next, { type: 'SUBMIT' }, ctx) : next
    }
    case 'REFERENCE_FAILED':
      return { ...state, loadProblem: event.problem, submitted: undefined }
    case 'RELOAD':
      return state.loadProblem ? { ...state, loadProblem: undefined, loads: state.loads + 1 } : state
    case 'SUBMIT': {
      if (!idle) return state
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
    case 'CREATED':
      if (state.work !== 'creating') return state
      return isFinalStatus(event.status.status)
        ? { tag: 'done', deposit: event.deposit, status: event.status }
        : { tag: 'following', deposit: event.deposit, status: event.status, attempt: 0 }
    case 'CREATE_FAILED':
      return state.work === 'creating' ? { ...state, work: 'idle', problem: event.problem, pinned: state.pinned || event.pinned } : state
    case 'RESTART':
      return state
    default:
      return state
  }
}

/**
 * The whole flow: the identity steps first for a buyer the service does not know yet, as one path.
 * `starting`: such a buyer, while the identity steps (fetched on demand) arrive.
 */
export type FlowState = IdentityState | BankDepositState | { tag: 'starting' }
export type FlowEvent = IdentityEvent | BankDepositEvent | { type: 'IDENTITY_READY'; identity: IdentityState }

/** The form a new deposit starts from (the partner's amount, the first currency, the buyer's country). */
export type FormDefaults = (country?: string) => DepositForm

export type FlowContext = BankDepositContext & {
  form: FormDefaults
  /** The identity sub-machine's transition, once its part has arrived. */
  identity?: (state: IdentityState, event: IdentityEvent) => IdentityState | Onboarded
}

// The identity steps arrive on demand: their states and events are named here, so the first load
// does not carry their module. An EDIT is theirs only with a `field` (the amount's EDIT is ours).
const IDENTITY_TAGS: readonly string[] = ['wallet', 'identity', 'details']
const IDENTITY_EVENTS: readonly string[] = ['EDIT', 'SUBMIT_WALLET', 'AUTH_CODE', 'SUBMIT', 'BACK', 'ONBOARDED', 'ONBOARD_FAILED']

export const isIdentityStep = (state: FlowState): state is IdentityState => IDENTITY_TAGS.includes(state.tag)
const isIdentityEvent = (event: FlowEvent): event is IdentityEvent => IDENTITY_EVENTS.includes(event.type) && (event.type !== 'EDIT' || 'field' in event)

export function flowTransition(state: FlowState, event: FlowEvent, ctx: FlowContext): FlowState {
  if (state.tag === 'starting') return event.type === 'IDENTITY_READY' ? event.identity : state
  if (event.type === 'IDENTITY_READY') return state
  if (isIdentityStep(state)) {
    if (!isIdentityEvent(event) || !ctx.identity) return state
    const next = ctx.identity(state, event)
    // Known to the service now: the country they gave is where their bank account most likely is.
    return next.tag === 'onboarded' ? amountState(next.account, ctx.form(state.form.country || undefined)) : next
  }
  return bankDepositTransition(state, event as BankDepositEvent, ctx)
}
