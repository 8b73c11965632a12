// The identity sub-machine's one piece of I/O: POST /fiat/onboard with the details and the code.
import type { ApiClient } from '../api/client'
import { onboard } from '../api/onboarding'
import { AuthCodeRejected, FieldRejected } from '../errors/ApiError'
import { describeError } from '../errors/describeError'
import type { Effect } from '../kernel/effects'
import { normalisePhone } from '../lib/contact'
import type { BuyerAccountStore } from './account'
import type { Field, IdentityEvent, IdentityState } from './machine'
import type { IdentityWalletDeps } from './walletEffects'

export type IdentityDeps = {
  api: ApiClient
  accounts: BuyerAccountStore
  usedCodes: { add(code: string): void }
  /** Where the wallet step offers the page's wallets (identity/walletEffects.ts): a bank flow that shows it. */
  wallet?: IdentityWalletDeps
}

/** The service's field paths (FieldRejected.field) as the form's fields. */
const FIELD_OF: Record<string, Field> = {
  'applicantInfo.nationality': 'nationality',
  'applicantInfo.phone': 'phone',
  'individual.name': 'name',
  'individual.email': 'email',
  'individual.country': 'country',
  wallet: 'wallet',
}

export function identityEffect(state: IdentityState, deps: IdentityDeps, dispatch: (event: IdentityEvent) => void): Effect | undefined {
  // "Not you?": the previous buyer's account and every record a bank flow kept for them go.
  if (state.tag === 'wallet') return state.forget ? { key: 'forget-account', start: () => deps.accounts.forget() } : undefined
  if (state.tag !== 'details' || state.work !== 'submitting') return undefined
  return { key: `onboard:${state.authCode}`, start: (alive) => void submitApplicant(state, deps, alive, dispatch) }
}

export async function submitApplicant(
  state: Extract<IdentityState, { tag: 'details' }>,
  deps: IdentityDeps,
  alive: () => boolean,
  dispatch: (event: IdentityEvent) => void,
) {
  const { form, authCode } = state
  try {
    const result = await onboard(deps.api, {
      authCode,
      applicantInfo: { nationality: form.nationality, phone: normalisePhone(form.phone) ?? form.phone.trim() },
      individual: { name: form.name.trim(), email: form.email.trim(), country: form.country },
      wallet: form.wallet.trim(),
    })
    deps.usedCodes.add(authCode)
    // The account exists: kept before anything else, so every bank flow finds it after a reload.
    deps.accounts.save({ accountId: result.accountId, walletId: result.walletId, wallet: form.wallet.trim() })
    if (alive()) dispatch({ type: 'ONBOARDED', ...result })
  } catch (error) {
    // A refused code is never sent again: the next attempt needs a new one from the identity provider.
    const codeSpent = error instanceof AuthCodeRejected
    if (codeSpent) deps.usedCodes.add(authCode)
    const field = error instanceof FieldRejected && error.field ? FIELD_OF[error.field] : undefined
    if (alive()) dispatch({ type: 'ONBOARD_FAILED', problem: describeError(error), field, codeSpent })
  }
}
