// The service asked for a higher verification tier (422 requires_action) when the deposit was asked
// for: the buyer is told why in their words and goes back to the identity provider (tier=higher), then
// onboards again with the new code (the same applicant details) and the same request goes again,
// under the same idempotency reference (creating.ts keeps it for the same account, currency and
// amount). Nothing typed is lost: the form as asked rides along (persisted.ts keeps it in this tab
// across the full navigation). Pure.
import { type Applicant, type BuyerAccount, type IdentityEvent, type IdentityState, type Onboarded, higherTierStep, onboardAgain } from '../../identity/machine'
import type { Problem } from '../../kernel/types'
import type { DepositForm, FormState } from './state'

/** What the deposit carries through the higher tier's identity steps: whose it is and what was asked. */
export type Pending = { tier: 'higher'; buyer: BuyerAccount; form: DepositForm; pinned?: boolean }

export type TierIdentity = IdentityState & { pending?: Pending }

/** The form this deposit was asked from, for `account`: as typed, its country kept (`again`: asked again at once, once its limits are here). */
export function formOf(pending: Pending, account: BuyerAccount, applicant?: Applicant, again?: boolean): FormState {
  return { tag: 'form', account, form: pending.form, loads: 0, work: 'idle', pinned: pending.pinned, picked: true, applicant, submitted: again || undefined }
}

/** requires_action on the deposit: the identity step again (tier=higher), for the buyer it was asked of, with the form as asked. */
export function higherTier(state: FormState, problem: Problem, pinned?: boolean): TierIdentity {
  const pending: Pending = { tier: 'higher', buyer: state.account, form: state.form, pinned: state.pinned || pinned || undefined }
  return { ...higherTierStep(state.applicant, state.account.wallet, problem), pending }
}

/** Where the steps go on after a page load with a higher tier pending: back from the provider, the details typed before go again. */
export function resumeTier(identity: IdentityState, pending: Pending): TierIdentity | FormState {
  if (identity.tag === 'details') return { ...onboardAgain(identity), pending }
  if (identity.tag === 'identity') return { ...identity, pending }
  // What was typed did not come back with it (storage off, another tab): the form as asked; asked again, it is refused again and says so.
  return formOf(pending, pending.buyer)
}

/**
 * The identity steps' own events during the detour. Back from the identity step: the form as it
 * was (never another wallet). A new code: the details typed go again. Onboarded: the same request,
 * asked again once the form's limits are here.
 */
export function tierStep(state: TierIdentity & { pending: Pending }, event: IdentityEvent, next: IdentityState | Onboarded): TierIdentity | FormState {
  const { pending } = state
  if (event.type === 'BACK' && state.tag === 'identity') return formOf(pending, pending.buyer, state.form)
  if (next.tag === 'onboarded') return formOf(pending, next.account, state.form, true)
  return { ...(event.type === 'AUTH_CODE' ? onboardAgain(next) : next), pending }
}
