// The bank flow (a virtual account, /fiat/...) as data: the identity steps (src/identity), then
// the account opening (`opening`), following its funding (`tracking`) and the end (`result`). A pure
// transition function.
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import type { Problem, Step } from '../../kernel/types'
import {
  type BuyerAccount,
  type IdentityContext,
  type IdentityEvent,
  type IdentityState,
  type Onboarded,
  emptyApplicant,
  identityTransition,
  isIdentityEvent,
  isIdentityState,
  walletStep,
} from '../../identity/machine'

export type { Applicant, Field, FieldError, ServerMessage } from '../../identity/machine'

/**
 * Ids and bank details (the service's account, not the buyer's). Persisted only while resuming
 * needs them (see persisted.ts): `walletId` until the account is open, the rest until funded.
 */
export type AccountRecord = {
  accountId: string
  walletId: string
  virtualAccountId?: string
  details?: Record<string, string>
  feeBps?: number
  /** The delivered asset, when the service names it (never assumed). */
  asset?: string
}

/** An open account: what the account screen and the status poll need; `walletId` is not kept. */
export type OpenAccount = Omit<AccountRecord, 'walletId'> & { walletId?: string; virtualAccountId: string; details: Record<string, string>; feeBps: number }

export type OnboardingState =
  | IdentityState
  | {
      tag: 'opening'
      record: AccountRecord
      kycPending: boolean
      /** A kycStatus the contract does not name, shown as it is. */
      kycStatus?: string
      problem?: Problem
      attempt: number
      /** Came from storage: the screen offers "Not you? Start over". */
      resumed?: boolean
    }
  | { tag: 'rejected'; record: AccountRecord }
  /** The account is open: its bank details show while its funding is followed. */
  | ({ tag: 'tracking'; record: OpenAccount; resumed?: boolean } & Followed)
  /** Funded: what arrived. */
  | { tag: 'result'; record: OpenAccount; deliveredAmount: string; deliveredAsset?: string }

export type OnboardingEvent =
  | IdentityEvent
  | { type: 'ACCOUNT_OPENED'; virtualAccountId: string; details: Record<string, string>; feeBps: number; asset?: string }
  | { type: 'ACCOUNT_PENDING' }
  | { type: 'ACCOUNT_FAILED'; problem: Problem }
  | { type: 'TRACK'; status: string; deliveredAmount?: string; asset?: string }
  /** "Not you? Start over" on a resumed account: someone else's on a shared device. */
  | { type: 'RESTART' }
  | FollowEvent

export { emptyApplicant }

export type StoredAccount = Omit<AccountRecord, 'walletId'> & { walletId?: string }

/**
 * A record of this flow resumes it; a buyer the service knows (from any bank flow) goes straight to
 * opening the account; anyone else starts the identity steps.
 */
export function initialState(identity: IdentityState, resume?: StoredAccount, known?: BuyerAccount): OnboardingState {
  if (resume?.virtualAccountId && resume.details && resume.feeBps !== undefined) {
    return { tag: 'tracking', record: resume as OpenAccount, attempt: 0, resumed: true }
  }
  if (resume?.walletId) return { tag: 'opening', record: resume as AccountRecord, kycPending: false, attempt: 0, resumed: true }
  if (known) return { tag: 'opening', record: { accountId: known.accountId, walletId: known.walletId }, kycPending: false, attempt: 0, resumed: true }
  return identity
}

const KNOWN_KYC = ['approved', 'pending', 'rejected']

/** The identity steps' connect-wallet sub-machine, once the flow's effects are here (identity/machine.ts). */
export type Context = IdentityContext

export function transition(state: OnboardingState, event: OnboardingEvent, ctx?: Context): OnboardingState {
  // "Not you?": a resumed account is someone else's on a shared device; start from nothing.
  if (event.type === 'RESTART' && (state.tag === 'opening' || state.tag === 'tracking') && state.resumed) {
    return walletStep(emptyApplicant, true)
  }
  if (isIdentityState(state)) {
    if (!isIdentityEvent(event)) return state
    const next = identityTransition(state, event, ctx)
    return next.tag === 'onboarded' ? afterOnboarded(next) : next
  }
  switch (state.tag) {
    case 'opening':
      switch (event.type) {
        case 'ACCOUNT_OPENED':
          return {
            tag: 'tracking',
            record: { ...state.record, virtualAccountId: event.virtualAccountId, details: event.details, feeBps: event.feeBps, asset: event.asset },
            attempt: 0,
            resumed: state.resumed,
          }
        case 'ACCOUNT_PENDING':
          return { ...state, kycPending: true, problem: undefined, attempt: state.attempt + 1 }
        case 'ACCOUNT_FAILED':
          return { ...state, problem: event.problem }
        case 'RETRY':
          return follow(state, event)
        default:
          return state
      }

    case 'tracking':
      if (event.type === 'TRACK') {
        if (event.status === 'funded' && event.deliveredAmount) {
          return { tag: 'result', record: state.record, deliveredAmount: event.deliveredAmount, deliveredAsset: event.asset ?? state.record.asset }
        }
        return tracked(state)
      }
      return isFollowEvent(event) ? follow(state, event) : state

    default:
      return state
  }
}

function afterOnboarded({ account, kycStatus }: Onboarded): OnboardingState {
  const record = { accountId: account.accountId, walletId: account.walletId }
  if (kycStatus === 'rejected') return { tag: 'rejected', record }
  return { tag: 'opening', record, kycPending: kycStatus !== 'approved', kycStatus: KNOWN_KYC.includes(kycStatus) ? undefined : kycStatus, attempt: 0 }
}

/** Which step of four the header shows: wallet, identity, details, the account. */
export function stepOf(state: OnboardingState): Step {
  return { step: stepNumber(state), of: 4 }
}

function stepNumber(state: OnboardingState): number {
  switch (state.tag) {
    case 'wallet':
      return 1
    case 'identity':
      return 2
    case 'details':
    case 'opening':
    case 'rejected':
      return 3
    default:
      return 4
  }
}
