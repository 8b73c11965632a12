// The identity steps as the bank deposit composes them, fetched only for a buyer the service does
// not know yet: where they begin, their transition and effect, and their screens with the sync of
// what the buyer typed across the identity provider's round trip.
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { identityEffect as effect } from '../../identity/effects'
import { identityTransition as transition } from '../../identity/machine'
import { identityStart as start, useIdentitySync } from '../../identity/start'
import type { Services } from '../../services'
import { IdentitySteps } from '../identity/IdentitySteps'

export const identityStart = start
export const identityTransition = transition
export const identityEffect = effect

export function BankIdentity({
  state,
  dispatch,
  services,
  session,
}: { state: IdentityState; dispatch: (event: IdentityEvent) => void; services: Services; session: Storage | undefined }) {
  useIdentitySync(state, dispatch, services, session)
  const { config } = services
  return <IdentitySteps state={state} dispatch={dispatch} identityUrl={config.identityUrl ?? ''} flow="bankDeposit" locale={config.locale} />
}
