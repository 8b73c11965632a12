// Fiat onboarding to a virtual account as data: a pure transition function.
import { isCountryCode } from '../../lib/country'
import { isEmail, normalisePhone } from '../../lib/contact'
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import type { Problem, Work } from '../../kernel/types'

export type Field = 'wallet' | 'nationality' | 'country' | 'phone' | 'name' | 'email' | 'category'
export type Applicant = Record<Field, string>
export type FieldError = 'required' | 'address' | 'country' | 'phone' | 'email' | 'server'

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

/** A problem from the service, and the field it named. */
export type ServerMessage = { field?: Field; problem: Problem }

export type OnboardingState =
  | { tag: 'wallet'; form: Applicant; error?: FieldError; forget?: boolean }
  | { tag: 'identity'; form: Applicant; rejectedCode?: boolean; serverMessage?: ServerMessage }
  | {
      tag: 'details'
      form: Applicant
      authCode: string
      errors: Partial<Record<Field, FieldError>>
      serverMessage?: ServerMessage
      work: Work<'submitting'>
    }
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
  | ({ tag: 'account'; record: OpenAccount; resumed?: boolean } & Followed)
  | { tag: 'funded'; record: OpenAccount; deliveredAmount: string; deliveredAsset?: string }

export type OnboardingEvent =
  | { type: 'EDIT'; field: Field; value: string }
  | { type: 'SUBMIT_WALLET' }
  | { type: 'AUTH_CODE'; code: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'ONBOARDED'; accountId: string; walletId: string; kycStatus: string }
  /** `codeSpent`: the service answered 400, so the code may not be sent again. */
  | { type: 'ONBOARD_FAILED'; problem: Problem; field?: Field; codeSpent?: boolean }
  | { type: 'ACCOUNT_OPENED'; virtualAccountId: string; details: Record<string, string>; feeBps: number; asset?: string }
  | { type: 'ACCOUNT_PENDING' }
  | { type: 'ACCOUNT_FAILED'; problem: Problem }
  | { type: 'TRACK'; status: string; deliveredAmount?: string; asset?: string }
  | { type: 'START_OVER' }
  | FollowEvent

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export const emptyApplicant: Applicant = { wallet: '', nationality: '', country: '', phone: '', name: '', email: '', category: 'self_employed' }

export type StoredAccount = Omit<AccountRecord, 'walletId'> & { walletId?: string }

export function initialOnboardingState(form: Applicant, authCode?: string, resume?: StoredAccount, refused?: ServerMessage): OnboardingState {
  if (resume?.virtualAccountId && resume.details && resume.feeBps !== undefined) {
    return { tag: 'account', record: resume as OpenAccount, attempt: 0, resumed: true }
  }
  if (resume?.walletId) return { tag: 'opening', record: resume as AccountRecord, kycPending: false, attempt: 0, resumed: true }
  if (!ADDRESS.test(form.wallet.trim())) return { tag: 'wallet', form }
  if (authCode) {
    // Back from verifying again after the bank refused: what it refused is marked again.
    const errors: Partial<Record<Field, FieldError>> = refused?.field ? { [refused.field]: 'server' } : {}
    return { tag: 'details', form, authCode, errors, serverMessage: refused, work: 'idle' }
  }
  return refused ? { tag: 'identity', form, rejectedCode: true, serverMessage: refused } : { tag: 'identity', form }
}

export function validateApplicant(form: Applicant): Partial<Record<Field, FieldError>> {
  const errors: Partial<Record<Field, FieldError>> = {}
  if (!isCountryCode(form.nationality)) errors.nationality = form.nationality ? 'country' : 'required'
  if (!isCountryCode(form.country)) errors.country = form.country ? 'country' : 'required'
  if (!form.phone.trim()) errors.phone = 'required'
  else if (!normalisePhone(form.phone)) errors.phone = 'phone'
  if (form.name.trim().length < 2) errors.name = 'required'
  if (!form.email.trim()) errors.email = 'required'
  else if (!isEmail(form.email)) errors.email = 'email'
  return errors
}

const KNOWN_KYC = ['approved', 'pending', 'rejected']

export function onboardingTransition(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  // "Not you?": a resumed account is someone else's on a shared device; start from nothing.
  if (event.type === 'START_OVER' && (state.tag === 'opening' || state.tag === 'account') && state.resumed) {
    return { tag: 'wallet', form: emptyApplicant, forget: true }
  }
  switch (state.tag) {
    case 'wallet':
      if (event.type === 'EDIT' && event.field === 'wallet') return { tag: 'wallet', form: { ...state.form, wallet: event.value }, forget: state.forget }
      if (event.type === 'SUBMIT_WALLET') {
        const wallet = state.form.wallet.trim()
        if (!wallet) return { ...state, error: 'required' }
        if (!ADDRESS.test(wallet)) return { ...state, error: 'address' }
        return { tag: 'identity', form: { ...state.form, wallet } }
      }
      return state

    case 'identity':
      if (event.type === 'AUTH_CODE') {
        // Back from a new verification: what the bank refused last time is marked again.
        const field = state.serverMessage?.field
        return { tag: 'details', form: state.form, authCode: event.code, errors: field ? { [field]: 'server' } : {}, serverMessage: state.serverMessage, work: 'idle' }
      }
      if (event.type === 'BACK') return { tag: 'wallet', form: state.form }
      return state

    case 'details':
      switch (event.type) {
        case 'EDIT': {
          if (state.work !== 'idle') return state
          const errors = { ...state.errors }
          delete errors[event.field]
          const serverMessage = state.serverMessage?.field === event.field ? undefined : state.serverMessage
          return { ...state, form: { ...state.form, [event.field]: event.value }, errors, serverMessage }
        }
        case 'SUBMIT': {
          if (state.work !== 'idle') return state
          const errors = validateApplicant(state.form)
          if (Object.keys(errors).length) return { ...state, errors, serverMessage: undefined }
          return { ...state, errors: {}, serverMessage: undefined, work: 'submitting' }
        }
        case 'ONBOARD_FAILED':
          // A code the service refused is never sent again: back to identity for a new one, with
          // the service's message and every detail the buyer typed.
          if (event.codeSpent) return { tag: 'identity', form: state.form, rejectedCode: true, serverMessage: { field: event.field, problem: event.problem } }
          return {
            ...state,
            work: 'idle',
            errors: event.field ? { ...state.errors, [event.field]: 'server' } : state.errors,
            serverMessage: { field: event.field, problem: event.problem },
          }
        case 'ONBOARDED': {
          const record = { accountId: event.accountId, walletId: event.walletId }
          if (event.kycStatus === 'rejected') return { tag: 'rejected', record }
          const kycStatus = KNOWN_KYC.includes(event.kycStatus) ? undefined : event.kycStatus
          return { tag: 'opening', record, kycPending: event.kycStatus !== 'approved', kycStatus, attempt: 0 }
        }
        default:
          return state
      }

    case 'opening':
      switch (event.type) {
        case 'ACCOUNT_OPENED':
          return {
            tag: 'account',
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

    case 'account':
      if (event.type === 'TRACK') {
        if (event.status === 'funded' && event.deliveredAmount) {
          return { tag: 'funded', record: state.record, deliveredAmount: event.deliveredAmount, deliveredAsset: event.asset ?? state.record.asset }
        }
        return tracked(state)
      }
      return isFollowEvent(event) ? follow(state, event) : state

    default:
      return state
  }
}
