// The crypto deposit as data: a pure transition function. No I/O, no timers, no DOM.
// Its stages: the wallet (the connect-wallet sub-machine, kernel/connectWallet.ts, its events under
// WALLET), the form, the quote and its send; once sent, sent.ts follows it to the end. Its states
// and events: state.ts.
import { connectWallet, disconnected } from '../../kernel/connectWallet'
import { priced, requoteOn } from '../../kernel/quote'
import type { Step } from '../../kernel/types'
import { parseAmount } from '../../lib/decimal'
import { kitAnswer, trackingTransition, tracked } from './sent'
import { type Context, type DepositEvent, type DepositState, type Form, type Preview, type Tracking, emptyForm } from './state'

export type {
  ByAddress,
  ByAddressEvent,
  Context,
  DepositEvent,
  DepositState,
  Form,
  FormError,
  Notice,
  Outcome,
  Preview,
  QuoteSummary,
  ReceiptSummary,
  Rejection,
  SendStep,
  Session,
  Stale,
  Stray,
  Tracking,
  Watch,
} from './state'
export { NO_SIGN_IN, emptyForm, trackingId, unrecorded } from './state'

export function initialState(resume?: Tracking, form: Form = emptyForm): DepositState {
  return resume ? tracked(resume) : { ...disconnected(), form }
}

export function transition(state: DepositState, event: DepositEvent, ctx: Context): DepositState {
  switch (event.type) {
    case 'ADOPT': {
      // Another tab sent a deposit: this one follows it too, instead of offering to send another.
      const beforeSending = state.tag !== 'tracking' && state.tag !== 'result' && !(state.tag === 'quote' && state.work !== 'idle')
      return beforeSending ? tracked(event.tracking) : state
    }
    case 'NO_SIGN_IN': {
      const priced = state.tag === 'form' || state.tag === 'quoting' || state.tag === 'quote'
      return priced && !state.session.noSignIn ? { ...state, session: { ...state.session, noSignIn: true } } : state
    }
    case 'REPORTED':
    case 'UNRECORDED':
      return kitAnswer(state, event)
    case 'BY_ADDRESS':
      // Paying by address: its own code's, sent once that code is here (byAddress.ts).
      return ctx.byAddress?.(state, event.event, ctx) ?? state
  }
  switch (state.tag) {
    case 'discovering':
    case 'wallets':
    case 'connecting':
      return walletTransition(state, event)
    case 'form':
      return formTransition(state, event, ctx)
    case 'quoting':
      return quotingTransition(state, event)
    case 'quote':
      return quoteTransition(state, event)
    case 'tracking':
      return trackingTransition(state, event)
    case 'byAddress':
      return state
    case 'result':
      if (event.type !== 'RESTART') return state
      return state.session ? { tag: 'form', form: emptyForm, session: state.session } : { ...disconnected(), form: emptyForm }
  }
}

type StateOf<T extends DepositState['tag']> = Extract<DepositState, { tag: T }>

/** The wallet: the connect-wallet sub-machine, with the form kept; connected, on to the form. */
function walletTransition(state: StateOf<'discovering' | 'wallets' | 'connecting'>, event: DepositEvent): DepositState {
  // The embedding may set the amount before the buyer reaches the form.
  if (event.type === 'EDIT' && state.tag !== 'connecting')
    return { ...state, form: { amount: event.amount ?? state.form.amount, source: event.source ?? state.form.source } }
  if (event.type !== 'WALLET') return state
  const next = connectWallet(state, event.event)
  if (next === state) return state
  return next.tag === 'connected' ? { tag: 'form', form: state.form, session: { wallet: next.wallet, account: next.account } } : { ...next, form: state.form }
}

function formTransition(state: StateOf<'form'>, event: DepositEvent, ctx: Context): DepositState {
  switch (event.type) {
    case 'EDIT':
      return { ...state, form: { amount: event.amount ?? state.form.amount, source: event.source ?? state.form.source }, error: undefined }
    case 'SUBMIT': {
      const decimals = ctx.sourceDecimals[state.form.source] ?? 0
      const parsed = parseAmount(state.form.amount, decimals, ctx.decimalMark)
      if (!parsed.ok) return { ...state, error: { kind: 'amount', problem: parsed.problem } }
      return { tag: 'quoting', form: state.form, session: state.session, amount: parsed.value, requote: false }
    }
    case 'WALLET':
      // Another wallet: the sub-machine starts over, letting go of this one (a WalletConnect session ends).
      return event.event.type === 'DISCONNECT' ? { ...disconnected(state.session.wallet), form: state.form } : state
    default:
      return state
  }
}

function quotingTransition(state: StateOf<'quoting'>, event: DepositEvent): DepositState {
  const { form, session } = state
  switch (event.type) {
    case 'QUOTED':
      return { tag: 'quote', form, session, amount: state.amount, work: 'idle', ...priced(event, state.requote) }
    case 'QUOTE_FAILED':
      return { tag: 'form', form, session, error: { kind: 'api', problem: event.problem } }
    case 'QUOTE_REJECTED':
      return { tag: 'form', form, session, error: { kind: 'rejected', rejection: event.rejection } }
    case 'BACK':
      return { tag: 'form', form, session }
    default:
      return state
  }
}

function quoteTransition(state: StateOf<'quote'>, event: DepositEvent): DepositState {
  const idle = state.work === 'idle'
  // Never re-priced under a buyer who is mid-way through signing.
  const requoted = requoteOn(
    state,
    event,
    (s, refreshed): DepositState => ({ tag: 'quoting', form: s.form, session: s.session, amount: s.amount, requote: refreshed }),
  )
  if (requoted) return requoted
  switch (event.type) {
    case 'BACK':
      return idle ? { tag: 'form', form: state.form, session: state.session } : state
    case 'CONFIRM':
      // Only once the preview judged what leaves the wallet (a short balance: the send says it), and
      // never where the partner's kit said it knows no buyer for this link.
      return idle && !state.stale && !state.session.noSignIn && confirmable(state.preview)
        ? { ...state, work: 'checking', notice: undefined, refreshed: false }
        : state
    case 'PREVIEW':
      return idle && !state.preview ? { ...state, preview: event.preview } : state
    case 'RETRY_PREVIEW':
      if ((state.work !== 'idle' && state.work !== 'checking') || state.stale || isSafe(state.preview)) return state
      return { ...state, work: 'idle', preview: undefined, previewAttempt: (state.previewAttempt ?? 0) + 1, notice: undefined }
    case 'QUOTE_REJECTED':
      // That quote is dropped: only a new price can go on.
      return { tag: 'form', form: state.form, session: state.session, error: { kind: 'rejected', rejection: event.rejection } }
    case 'WORK':
      return idle ? state : { ...state, work: event.work, approvalHash: event.approvalHash ?? state.approvalHash }
    case 'BLOCKED':
      return idle ? state : { ...state, work: 'idle', notice: event.notice }
    case 'SENT':
      return idle ? state : tracked(event.tracking, state.session)
    case 'WALLET':
      // The wallet ended the connection: connected again (or another), the amount kept; never mid-send.
      return idle && event.event.type === 'DISCONNECT' ? { ...disconnected(state.session.wallet), form: state.form } : state
    default:
      return state
  }
}

const isSafe = (p: Preview | undefined) => p?.kind === 'ready' && p.safe
const confirmable = (p: Preview | undefined) => isSafe(p) || p?.kind === 'short'

/** Which step of four the header shows. */
export function stepOf(state: DepositState): Step {
  return { step: stepNumber(state), of: 4 }
}

function stepNumber(state: DepositState): number {
  switch (state.tag) {
    case 'discovering':
    case 'wallets':
    case 'connecting':
      return 1
    case 'form':
    case 'quoting':
    case 'byAddress':
      return 2
    case 'quote':
      return 3
    default:
      return 4
  }
}
