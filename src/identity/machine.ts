// Who the buyer is, as the service needs it before any bank flow: the wallet that receives (the
// connect-wallet sub-machine, kernel/connectWallet.ts, its events under WALLET as in the deposit and
// the payout's funding; or an address typed, since the contract's `wallet` is only an address), a
// verification with the identity provider (a full navigation and back, with a single-use
// authCode), and the applicant's details (POST /fiat/onboard). A sub-machine the bank flows
// compose: it ends in `onboarded`, and each flow decides what comes next. Pure.
import type { ChosenWallet, ConnectWalletEvent, ConnectWalletState, connectWallet } from '../kernel/connectWallet'
import { isCountryCode } from '../lib/country'
import { isEmail, normalisePhone } from '../lib/contact'
import { type Problem, type Work, isWalletConnect } from '../kernel/types'
import type { BuyerAccount } from './account'

export type { BuyerAccount }

export type Field = 'wallet' | 'nationality' | 'country' | 'phone' | 'name' | 'email'
export type Applicant = Record<Field, string>
export type FieldError = 'required' | 'address' | 'country' | 'phone' | 'email' | 'server'

/** A problem from the service, and the field it named. */
export type ServerMessage = { field?: Field; problem: Problem }

export type IdentityState =
  /** `connection`: the page's wallets, one of which may be connected to fill the address; `error`: the address typed. */
  | { tag: 'wallet'; form: Applicant; connection: ConnectWalletState; error?: FieldError; forget?: boolean }
  /** `release`: the WalletConnect session that gave the address, asked nothing else: ended as this step begins (walletEffects.ts). */
  | { tag: 'identity'; form: Applicant; rejectedCode?: boolean; serverMessage?: ServerMessage; release?: ChosenWallet }
  | {
      tag: 'details'
      form: Applicant
      authCode: string
      errors: Partial<Record<Field, FieldError>>
      serverMessage?: ServerMessage
      work: Work<'submitting'>
    }

/** Where the sub-machine ends: the service knows the buyer. */
export type Onboarded = { tag: 'onboarded'; account: BuyerAccount; kycStatus: string }

export type IdentityEvent =
  | { type: 'EDIT'; field: Field; value: string }
  /** Go on with the address typed. */
  | { type: 'SUBMIT_WALLET' }
  /** The connect-wallet sub-machine's events (kernel/connectWallet.ts): a wallet connected gives the address. */
  | { type: 'WALLET'; event: ConnectWalletEvent }
  | { type: 'AUTH_CODE'; code: string }
  | { type: 'SUBMIT' }
  | { type: 'BACK' }
  | { type: 'ONBOARDED'; accountId: string; walletId: string; kycStatus: string }
  /** `codeSpent`: the service refused the code, so it may not be sent again. */
  | { type: 'ONBOARD_FAILED'; problem: Problem; field?: Field; codeSpent?: boolean }

const TAGS = new Set(['wallet', 'identity', 'details'])
const EVENTS = new Set(['EDIT', 'SUBMIT_WALLET', 'WALLET', 'AUTH_CODE', 'SUBMIT', 'BACK', 'ONBOARDED', 'ONBOARD_FAILED'])

export const isIdentityState = (state: { tag: string }): state is IdentityState => TAGS.has(state.tag)
export const isIdentityEvent = (event: { type: string }): event is IdentityEvent => EVENTS.has(event.type)

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

// No `individual.category`: the contract names only its default, which the service applies when it is omitted.
export const emptyApplicant: Applicant = { wallet: '', nationality: '', country: '', phone: '', name: '', email: '' }

/** Where a buyer not yet known starts: the wallet, or back from the identity provider with a code. */
export function initialIdentity(form: Applicant, authCode?: string, refused?: ServerMessage): IdentityState {
  if (!ADDRESS.test(form.wallet.trim())) return walletStep(form)
  if (authCode) return verified(form, authCode, refused)
  return refused ? { tag: 'identity', form, rejectedCode: true, serverMessage: refused } : { tag: 'identity', form }
}

/**
 * The connect-wallet sub-machine (kernel/connectWallet.ts), handed in by the composing flow with its
 * effects, which look for the wallets: no wallet event comes before, and a bank flow's first load
 * does not carry it.
 */
export type IdentityContext = { connectWallet?: typeof connectWallet }

/** The wallet step: the page's wallets looked for, beside the address field. */
export const walletStep = (form: Applicant, forget?: boolean): Extract<IdentityState, { tag: 'wallet' }> => ({
  tag: 'wallet',
  form,
  connection: { tag: 'discovering' },
  ...(forget ? { forget } : {}),
})

/**
 * Back from a verification with its code: the details. What the bank refused last time on a field
 * is marked again; a message about no field (the verification itself, a spent code) was answered
 * by verifying, and goes.
 */
function verified(form: Applicant, authCode: string, refused: ServerMessage | undefined): Extract<IdentityState, { tag: 'details' }> {
  const field = refused?.field
  return { tag: 'details', form, authCode, errors: field ? { [field]: 'server' } : {}, serverMessage: field ? refused : undefined, work: 'idle' }
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

export function identityTransition(state: IdentityState, event: IdentityEvent, ctx?: IdentityContext): IdentityState | Onboarded {
  switch (state.tag) {
    case 'wallet':
      if (event.type === 'EDIT' && event.field === 'wallet') {
        const { error: _, ...rest } = state
        return { ...rest, form: { ...state.form, wallet: event.value } }
      }
      if (event.type === 'WALLET') return ctx?.connectWallet ? connecting(state, event.event, ctx.connectWallet) : state
      if (event.type === 'SUBMIT_WALLET') {
        const wallet = state.form.wallet.trim()
        if (!wallet) return { ...state, error: 'required' }
        if (!ADDRESS.test(wallet)) return { ...state, error: 'address' }
        return { tag: 'identity', form: { ...state.form, wallet } }
      }
      return state

    case 'identity':
      if (event.type === 'AUTH_CODE') return verified(state.form, event.code, state.serverMessage)
      if (event.type === 'BACK') return walletStep(state.form)
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
        case 'ONBOARDED':
          return state.work === 'submitting'
            ? {
                tag: 'onboarded',
                account: { accountId: event.accountId, walletId: event.walletId, wallet: state.form.wallet.trim() },
                kycStatus: event.kycStatus,
              }
            : state
        default:
          return state
      }
  }
}

/** A wallet connected is the address that receives: on to the verification. */
function connecting(state: Extract<IdentityState, { tag: 'wallet' }>, event: ConnectWalletEvent, subMachine: typeof connectWallet): IdentityState {
  const next = subMachine(state.connection, event)
  if (next === state.connection) return state
  if (next.tag === 'connected')
    return { tag: 'identity', form: { ...state.form, wallet: next.account }, ...(isWalletConnect(next.wallet) ? { release: next.wallet } : {}) }
  return { ...state, connection: next }
}

// A higher verification tier (422 requires_action, assumed-contract.md), as every bank flow asked for
// one does it: back to the identity provider (`tier=higher`) with the service's words on the identity
// step and the details typed in this page kept; once verified, those details go again with the new
// code, unasked.

/** The identity step again for a buyer the service knows: their wallet, the details typed in this page (if any), and why. */
export function higherTierStep(applicant: Applicant | undefined, wallet: string, problem: Problem): Extract<IdentityState, { tag: 'identity' }> {
  return { tag: 'identity', form: { ...emptyApplicant, ...applicant, wallet }, rejectedCode: false, serverMessage: { problem } }
}

/**
 * A higher tier verified (requires_action): the contract asks only a new code, with the same
 * applicant details (assumed-contract.md). Details already complete go again as they are; only
 * what is missing or refused is asked.
 */
export function onboardAgain(state: IdentityState): IdentityState {
  if (state.tag !== 'details' || state.work !== 'idle' || Object.keys(state.errors).length) return state
  return Object.keys(validateApplicant(state.form)).length ? state : { ...state, work: 'submitting' }
}
