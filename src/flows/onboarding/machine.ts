// Fiat onboarding to a virtual account as data: a pure transition function.
import { isCountryCode } from '../../lib/country'
import { isEmail, normalisePhone } from '../../lib/contact'
import type { Problem } from '../deposit/machine'

export type Field = 'wallet' | 'nationality' | 'country' | 'phone' | 'name' | 'email' | 'category'
export type Applicant = Record<Field, string>
export type FieldError = 'required' | 'address' | 'country' | 'phone' | 'email' | 'server'

/** Ids and bank details (the service's account, not the buyer's): persisted, shown again later. */
export type AccountRecord = {
  accountId: string
  walletId: string
  virtualAccountId?: string
  details?: Record<string, string>
  feeBps?: number
}

export type OnboardingState =
  | { tag: 'wallet'; form: Applicant; error?: FieldError }
  | { tag: 'identity'; form: Applicant; rejectedCode?: boolean }
  | {
      tag: 'details'
      form: Applicant
      authCode: string
      errors: Partial<Record<Field, FieldError>>
      serverMessage?: { field?: Field; problem: Problem }
      submitting: boolean
    }
  | { tag: 'opening'; record: AccountRecord; kycPending: boolean; problem?: Problem; attempt: number }
  | { tag: 'rejected'; record: AccountRecord }
  | { tag: 'account'; record: Required<AccountRecord>; waiting?: boolean; problem?: Problem; attempt: number; tab?: 'held' | 'elsewhere' }
  | { tag: 'funded'; record: Required<AccountRecord>; deliveredAmount: string }

export type OnboardingEvent =
  | { type: 'EDIT'; field: Field; value: string }
  | { type: 'SUBMIT_WALLET' }
  | { type: 'AUTH_CODE'; code: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'ONBOARDED'; accountId: string; walletId: string; kycStatus: string }
  | { type: 'ONBOARD_FAILED'; problem: Problem; field?: Field; authCodeRejected?: boolean }
  | { type: 'ACCOUNT_OPENED'; virtualAccountId: string; details: Record<string, string>; feeBps: number }
  | { type: 'ACCOUNT_PENDING' }
  | { type: 'ACCOUNT_FAILED'; problem: Problem }
  | { type: 'STATUS'; status: string; deliveredAmount?: string }
  | { type: 'WAITING'; waiting: boolean }
  | { type: 'TRACK_ERROR'; problem: Problem }
  | { type: 'RETRY' }
  | { type: 'TAB'; tab: 'held' | 'elsewhere' }

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

export const emptyApplicant: Applicant = { wallet: '', nationality: '', country: '', phone: '', name: '', email: '', category: 'self_employed' }

export function initialOnboardingState(form: Applicant, authCode?: string, resume?: AccountRecord): OnboardingState {
  if (resume?.virtualAccountId && resume.details && resume.feeBps !== undefined) {
    return { tag: 'account', record: resume as Required<AccountRecord>, attempt: 0 }
  }
  if (resume) return { tag: 'opening', record: resume, kycPending: false, attempt: 0 }
  if (!ADDRESS.test(form.wallet.trim())) return { tag: 'wallet', form }
  if (authCode) return { tag: 'details', form, authCode, errors: {}, submitting: false }
  return { tag: 'identity', form }
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

export function onboardingTransition(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  switch (state.tag) {
    case 'wallet':
      if (event.type === 'EDIT' && event.field === 'wallet') return { tag: 'wallet', form: { ...state.form, wallet: event.value } }
      if (event.type === 'SUBMIT_WALLET') {
        const wallet = state.form.wallet.trim()
        if (!wallet) return { ...state, error: 'required' }
        if (!ADDRESS.test(wallet)) return { ...state, error: 'address' }
        return { tag: 'identity', form: { ...state.form, wallet } }
      }
      return state

    case 'identity':
      if (event.type === 'AUTH_CODE') return { tag: 'details', form: state.form, authCode: event.code, errors: {}, submitting: false }
      if (event.type === 'BACK') return { tag: 'wallet', form: state.form }
      return state

    case 'details':
      switch (event.type) {
        case 'EDIT': {
          if (state.submitting) return state
          const errors = { ...state.errors }
          delete errors[event.field]
          const serverMessage = state.serverMessage?.field === event.field ? undefined : state.serverMessage
          return { ...state, form: { ...state.form, [event.field]: event.value }, errors, serverMessage }
        }
        case 'SUBMIT': {
          if (state.submitting) return state
          const errors = validateApplicant(state.form)
          if (Object.keys(errors).length) return { ...state, errors, serverMessage: undefined }
          return { ...state, errors: {}, serverMessage: undefined, submitting: true }
        }
        case 'ONBOARD_FAILED':
          // A rejected code is never sent again: back to the identity step for a new one.
          if (event.authCodeRejected) return { tag: 'identity', form: state.form, rejectedCode: true }
          return {
            ...state,
            submitting: false,
            errors: event.field ? { ...state.errors, [event.field]: 'server' } : state.errors,
            serverMessage: { field: event.field, problem: event.problem },
          }
        case 'ONBOARDED': {
          const record = { accountId: event.accountId, walletId: event.walletId }
          if (event.kycStatus === 'rejected') return { tag: 'rejected', record }
          return { tag: 'opening', record, kycPending: event.kycStatus !== 'approved', attempt: 0 }
        }
        default:
          return state
      }

    case 'opening':
      switch (event.type) {
        case 'ACCOUNT_OPENED':
          return {
            tag: 'account',
            record: { ...state.record, virtualAccountId: event.virtualAccountId, details: event.details, feeBps: event.feeBps },
            attempt: 0,
          }
        case 'ACCOUNT_PENDING':
          return { ...state, kycPending: true, problem: undefined, attempt: state.attempt + 1 }
        case 'ACCOUNT_FAILED':
          return { ...state, problem: event.problem }
        case 'RETRY':
          return state.problem ? { ...state, problem: undefined, attempt: state.attempt + 1 } : state
        default:
          return state
      }

    case 'account':
      switch (event.type) {
        case 'TAB':
          return state.tab === event.tab ? state : { ...state, tab: event.tab }
        case 'STATUS':
          if (event.status === 'funded' && event.deliveredAmount) {
            return { tag: 'funded', record: state.record, deliveredAmount: event.deliveredAmount }
          }
          return state.waiting ? { ...state, waiting: false } : state
        case 'WAITING':
          return state.waiting === event.waiting ? state : { ...state, waiting: event.waiting }
        case 'TRACK_ERROR':
          return { ...state, problem: event.problem }
        case 'RETRY':
          return state.problem ? { ...state, problem: undefined, attempt: state.attempt + 1 } : state
        default:
          return state
      }

    default:
      return state
  }
}
