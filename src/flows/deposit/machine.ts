// The crypto deposit as data: a pure transition function. No I/O, no timers, no DOM.
import type { DepositQuote } from '../../api/schemas'
import { type ChosenWallet, type ConnectWalletEvent, type ConnectWalletState, connectWallet, disconnected } from '../../kernel/connectWallet'
import { type AmountProblem, parseAmount } from '../../lib/decimal'
import { type FollowEvent, type Followed, follow, isFollowEvent } from '../../kernel/follow'
import { type Priced, type QuoteEvent, type Stale, priced, requoteOn } from '../../kernel/quote'
import type { Problem, Rejection, SendProblem, Step, Work } from '../../kernel/types'


export type Form = { amount: string; source: number }
export type Session = {
  wallet: ChosenWallet
  account: string
  /**
   * The partner's kit, asked before confirming, knows no signed-in buyer for this link (401 to a
   * link without a partner token: effects.ts): no deposit can be sent from it, so none is confirmed.
   */
  noSignIn?: true
}

export type QuoteSummary = {
  amountIn: string
  amountOut: string
  fee: string
  sourceChainId: number
  destChainId: number
  sourceSymbol: string
  destSymbol: string
}

export type ReceiptSummary = {
  txHash: string
  logs: Array<{ address: string; topics: string[] }>
}

/** Everything needed to follow a sent deposit; persisted, so it holds no personal data. */
export type Tracking = {
  provider: string
  chainId: number
  /** The deposit's hash; empty while a batch (EIP-5792) has not told it yet. */
  txHash: string
  /** The wallet's id of the batch (approval + deposit) when the wallet sent them as one. */
  callsId?: string
  walletRdns?: string
  summary: QuoteSummary
  createdAt: number
  approvalHash?: string
  originHash?: string
  deliveredHash?: string
  /** The partner's kit answered `POST /deposit/sent` for `txHash` with its `id` (src/flows/deposit/report.ts). */
  kit?: { txHash: string; id: string }
  /**
   * The hash the partner's kit refused to record (403 wallet_not_linked: report.ts): sent, followed
   * as any deposit, but the shop may not show it. Not kept: a reload tells the kit again.
   */
  unrecorded?: string
}

export type SendStep = Work<'switching' | 'checking' | 'linking' | 'approving' | 'approvalConfirming' | 'sending' | 'batching'>

/** What the simulation says leaves the wallet: amounts of tokens, and the network fee. */
export type Preview =
  /**
   * `safe`: eth_simulateV1 judged what leaves the wallet, or (no eth_simulateV1) the guard understands
   * every call. Only a safe preview lets the buyer confirm.
   */
  | { kind: 'ready'; outflow: Array<{ amount: string; symbol: string }>; fee?: string; feeSymbol: string; safe: boolean }
  /** The chain could not be asked (network trouble, no reader): nothing may be sent; try again. */
  | { kind: 'unavailable' }
  /** A balance below the amount: nothing to simulate; the send says the balance before any prompt. */
  | { kind: 'short' }

export type { Stale }

export type { Rejection }

/** The id that names a sent deposit: its hash, or its batch's id until the hash is known. */
export const trackingId = (t: Tracking) => t.txHash || t.callsId || ''

/** The kit refused to record this deposit's own hash (not a hash it replaced). */
export const unrecorded = (t: Tracking) => !!t.txHash && t.unrecorded === t.txHash

/** What the quote screen tells about the send (words in errors/words.ts). */
export type Notice = Extract<SendProblem, { kind: 'wallet' | 'wrongChain' | 'insufficient' | 'insufficientGas' | 'elsewhere' | 'unlinked' | 'refused' | 'check' }>

/** What the quote says once the kit answered a link without sign-in with 401 (session.noSignIn): one object, one `error` event. */
export const NO_SIGN_IN: Extract<Notice, { kind: 'check' }> = { kind: 'check', problem: { key: 'link.signIn', code: 'unauthenticated' } }

export type FormError =
  | { kind: 'amount'; problem: AmountProblem }
  | { kind: 'api'; problem: Problem }
  | { kind: 'rejected'; rejection: Rejection }

export type Outcome = 'done' | 'failed' | 'expired' | 'cancelled' | 'reverted' | 'dropped' | 'unfollowed'

export type DepositState =
  | (ConnectWalletState & { form: Form })
  | { tag: 'form'; form: Form; session: Session; error?: FormError }
  | { tag: 'quoting'; form: Form; session: Session; amount: string; requote: boolean }
  | {
      tag: 'quote'
      form: Form
      session: Session
      amount: string
      work: SendStep
      approvalHash?: string
      notice?: Notice
      preview?: Preview
      /** How many times the preview ran again at the buyer's request. */
      previewAttempt?: number
    } & Priced<DepositQuote>
  | ({
      tag: 'tracking'
      tracking: Tracking
      /** batching: the wallet holds approval + deposit as one batch and has not told the hash yet. */
      phase: 'batching' | 'confirming' | 'delivering'
      replaced?: boolean
      /** The chain has not seen the transaction for a while: dropped, or replaced outside our view. */
      missing?: boolean
      /** No RPC the widget can use reads this chain: say so, offer to stop following. */
      unreadable?: boolean
      session?: Session
    } & Followed)
  | { tag: 'result'; outcome: Outcome; tracking: Tracking; session?: Session }

export type DepositEvent =
  /** The connect-wallet sub-machine's events (kernel/connectWallet.ts). */
  | { type: 'WALLET'; event: ConnectWalletEvent }
  | { type: 'EDIT'; amount?: string; source?: number }
  | { type: 'SUBMIT' }
  | QuoteEvent<DepositQuote>
  | { type: 'QUOTE_REJECTED'; rejection: Rejection }
  | { type: 'PREVIEW'; preview: Preview }
  /** Run the preview again (the buyer's "try again", or a send that finds the balance now enough). */
  | { type: 'RETRY_PREVIEW' }
  | { type: 'BATCHED'; txHash: string; approvalHash?: string }
  | { type: 'BATCH_FAILED'; outcome: 'reverted' | 'dropped' }
  | { type: 'UNREADABLE' }
  | { type: 'BACK' }
  | { type: 'CONFIRM' }
  | { type: 'WORK'; work: Exclude<SendStep, 'idle'>; approvalHash?: string }
  | { type: 'BLOCKED'; notice?: Notice }
  | { type: 'SENT'; tracking: Tracking }
  | { type: 'RECEIPT'; success: boolean }
  | { type: 'REPLACED'; reason: 'repriced' | 'replaced' | 'cancelled'; txHash: string }
  | { type: 'TRACK'; status: 'pending' | 'done' | 'failed' | 'expired'; origin?: string; delivered?: string }
  | { type: 'MISSING'; missing: boolean }
  | { type: 'ADOPT'; tracking: Tracking }
  /** The partner's kit answered `POST /deposit/sent` for this hash (report.ts). */
  | { type: 'REPORTED'; txHash: string; id: string }
  /** The partner's kit refused to record this hash (403 wallet_not_linked: report.ts). */
  | { type: 'UNRECORDED'; txHash: string }
  /** The partner's kit, asked before confirming, answered 401 to a link without sign-in (session.noSignIn). */
  | { type: 'NO_SIGN_IN' }
  | { type: 'STOP_FOLLOWING' }
  | FollowEvent
  | { type: 'RESTART' }

export type Context = {
  /** Decimals of each configured source token, by index. */
  sourceDecimals: number[]
  decimalMark: '.' | ','
}

export const emptyForm: Form = { amount: '', source: 0 }

export function initialState(resume?: Tracking, form: Form = emptyForm): DepositState {
  return resume ? tracked(resume) : { ...disconnected(), form }
}

function tracked(tracking: Tracking, session?: Session): DepositState {
  return { tag: 'tracking', tracking, phase: tracking.txHash ? 'confirming' : 'batching', attempt: 0, session }
}

export function transition(state: DepositState, event: DepositEvent, ctx: Context): DepositState {
  // Another tab sent a deposit: this one follows it too, instead of offering to send another.
  if (event.type === 'ADOPT') {
    const beforeSending = state.tag !== 'tracking' && state.tag !== 'result' && !(state.tag === 'quote' && state.work !== 'idle')
    return beforeSending ? tracked(event.tracking) : state
  }
  if (event.type === 'NO_SIGN_IN') {
    const priced = state.tag === 'form' || state.tag === 'quoting' || state.tag === 'quote'
    return priced && !state.session.noSignIn ? { ...state, session: { ...state.session, noSignIn: true } } : state
  }
  if (event.type === 'REPORTED') {
    const told = (state.tag === 'tracking' || state.tag === 'result') && state.tracking.txHash === event.txHash
    return told ? { ...state, tracking: { ...state.tracking, kit: { txHash: event.txHash, id: event.id } } } : state
  }
  if (event.type === 'UNRECORDED') {
    const told = (state.tag === 'tracking' || state.tag === 'result') && state.tracking.txHash === event.txHash
    return told ? { ...state, tracking: { ...state.tracking, unrecorded: event.txHash } } : state
  }
  switch (state.tag) {
    case 'discovering':
    case 'wallets':
    case 'connecting': {
      // The embedding may set the amount before the buyer reaches the form.
      if (event.type === 'EDIT' && state.tag !== 'connecting') return { ...state, form: { amount: event.amount ?? state.form.amount, source: event.source ?? state.form.source } }
      if (event.type !== 'WALLET') return state
      const next = connectWallet(state, event.event)
      if (next === state) return state
      return next.tag === 'connected' ? { tag: 'form', form: state.form, session: { wallet: next.wallet, account: next.account } } : { ...next, form: state.form }
    }

    case 'form':
      if (event.type === 'EDIT') {
        const form = {
          amount: event.amount ?? state.form.amount,
          source: event.source ?? state.form.source,
        }
        return { ...state, form, error: undefined }
      }
      if (event.type === 'SUBMIT') {
        const decimals = ctx.sourceDecimals[state.form.source] ?? 0
        const parsed = parseAmount(state.form.amount, decimals, ctx.decimalMark)
        if (!parsed.ok) return { ...state, error: { kind: 'amount', problem: parsed.problem } }
        return { tag: 'quoting', form: state.form, session: state.session, amount: parsed.value, requote: false }
      }
      if (event.type === 'WALLET' && event.event.type === 'DISCONNECT') return { ...disconnected(), form: state.form }
      return state

    case 'quoting':
      if (event.type === 'QUOTED') {
        return { tag: 'quote', form: state.form, session: state.session, amount: state.amount, work: 'idle', ...priced(event, state.requote) }
      }
      if (event.type === 'QUOTE_FAILED') {
        return { tag: 'form', form: state.form, session: state.session, error: { kind: 'api', problem: event.problem } }
      }
      if (event.type === 'QUOTE_REJECTED') {
        return { tag: 'form', form: state.form, session: state.session, error: { kind: 'rejected', rejection: event.rejection } }
      }
      if (event.type === 'BACK') return { tag: 'form', form: state.form, session: state.session }
      return state

    case 'quote':
      return quoteTransition(state, event)

    case 'tracking':
      return trackingTransition(state, event)

    case 'result':
      if (event.type === 'RESTART') {
        return state.session
          ? { tag: 'form', form: emptyForm, session: state.session }
          : { ...disconnected(), form: emptyForm }
      }
      return state
  }
}

type QuoteState = Extract<DepositState, { tag: 'quote' }>

function quoteTransition(state: QuoteState, event: DepositEvent): DepositState {
  const idle = state.work === 'idle'
  // Never re-priced under a buyer who is mid-way through signing.
  const requoted = requoteOn(state, event, (s, refreshed): DepositState => ({ tag: 'quoting', form: s.form, session: s.session, amount: s.amount, requote: refreshed }))
  if (requoted) return requoted
  switch (event.type) {
    case 'BACK':
      return idle ? { tag: 'form', form: state.form, session: state.session } : state
    case 'CONFIRM':
      // Only once the preview judged what leaves the wallet (a short balance: the send says it), and
      // never where the partner's kit said it knows no buyer for this link.
      return idle && !state.stale && !state.session.noSignIn && confirmable(state.preview) ? { ...state, work: 'checking', notice: undefined, refreshed: false } : state
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
    default:
      return state
  }
}

const isSafe = (p: Preview | undefined) => p?.kind === 'ready' && p.safe
const confirmable = (p: Preview | undefined) => isSafe(p) || p?.kind === 'short'

type TrackingState = Extract<DepositState, { tag: 'tracking' }>

function trackingTransition(state: TrackingState, event: DepositEvent): DepositState {
  switch (event.type) {
    case 'RECEIPT':
      if (state.phase !== 'confirming') return state
      return event.success
        ? { ...state, phase: 'delivering', problem: undefined, missing: false }
        : { tag: 'result', outcome: 'reverted', tracking: state.tracking, session: state.session }
    case 'MISSING':
      return state.phase !== 'confirming' || !!state.missing === event.missing ? state : { ...state, missing: event.missing }
    case 'STOP_FOLLOWING':
      // Only for a transaction the chain cannot find: the buyer checked the wallet and gives up on it.
      if (state.missing) return { tag: 'result', outcome: 'dropped', tracking: state.tracking, session: state.session }
      // Or one on a chain nothing here can read: we stop following, without saying how it ended.
      if (state.unreadable) return { tag: 'result', outcome: 'unfollowed', tracking: state.tracking, session: state.session }
      return state
    case 'UNREADABLE':
      return state.unreadable ? state : { ...state, unreadable: true, waiting: false }
    case 'BATCHED':
      if (state.phase !== 'batching') return state
      return {
        ...state,
        phase: 'confirming',
        tracking: { ...state.tracking, txHash: event.txHash, approvalHash: event.approvalHash ?? state.tracking.approvalHash },
      }
    case 'BATCH_FAILED':
      return state.phase === 'batching' ? { tag: 'result', outcome: event.outcome, tracking: state.tracking, session: state.session } : state
    case 'REPLACED':
      if (state.phase !== 'confirming') return state
      if (event.reason === 'repriced') {
        return { ...state, tracking: { ...state.tracking, txHash: event.txHash }, replaced: true }
      }
      return { tag: 'result', outcome: 'cancelled', tracking: state.tracking, session: state.session }
    case 'TRACK': {
      if (state.phase !== 'delivering') return state
      const tracking = {
        ...state.tracking,
        originHash: event.origin ?? state.tracking.originHash,
        deliveredHash: event.delivered ?? state.tracking.deliveredHash,
      }
      if (event.status === 'pending') return { ...state, tracking, waiting: false, problem: undefined }
      return { tag: 'result', outcome: event.status, tracking, session: state.session }
    }
    default:
      return isFollowEvent(event) ? follow(state, event) : state
  }
}

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
      return 2
    case 'quote':
      return 3
    default:
      return 4
  }
}
