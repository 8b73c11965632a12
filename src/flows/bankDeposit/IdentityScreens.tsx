// The identity steps as the bank deposit shows them, fetched only for a buyer the service does not
// know yet (the flow imports this module on demand; the identity sub-machine itself is composed in
// machine.ts): where the steps begin, and their screens with the sync of what the buyer typed across
// the identity provider's round trip.
import type { WidgetConfig } from '../../config/config'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { identityStart, useIdentitySync } from '../../identity/start'
import { IdentitySteps } from '../../screens/identity/IdentitySteps'
import type { Services } from '../../services'

/** Where the identity steps begin: back from the provider with a code, or the wallet. */
export function identityBegins(config: WidgetConfig, local: Storage | undefined, session: Storage | undefined): IdentityState {
  return identityStart(config, local, session).identity
}

export function BankIdentity({
  state,
  dispatch,
  services,
  session,
  tier,
}: {
  state: IdentityState
  dispatch: (event: IdentityEvent) => void
  services: Services
  session: Storage | undefined
  /** `higher`: the service asked this buyer for a higher verification tier (422 requires_action). */
  tier?: 'higher'
}) {
  useIdentitySync(state, dispatch, services, session)
  const { config } = services
  return <IdentitySteps state={state} dispatch={dispatch} identityUrl={config.identityUrl ?? ''} flow="bankDeposit" locale={config.locale} tier={tier} />
}
