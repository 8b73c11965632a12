// The identity steps as every bank flow shows them: the wallet, the verification, the details.
import { enFiat } from '../../i18n/en-fiat'
import { addEnglish } from '../../i18n/i18n'
import { identityHref } from '../../identity/start'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { DetailsScreen } from './DetailsScreen'
import { IdentityStep, WalletStep } from './StartScreens'

// The identity steps' English strings come with the first bank flow that shows them.
addEnglish(enFiat)

export function IdentitySteps({
  state,
  dispatch,
  identityUrl,
  flow,
  locale,
}: { state: IdentityState; dispatch: (event: IdentityEvent) => void; identityUrl: string; flow: string; locale: string }) {
  switch (state.tag) {
    case 'wallet':
      return <WalletStep state={state} dispatch={dispatch} />
    case 'identity':
      return <IdentityStep state={state} dispatch={dispatch} identityHref={identityHref(identityUrl, flow)} />
    case 'details':
      return <DetailsScreen state={state} dispatch={dispatch} locale={locale} opensAccount={flow === 'onboarding'} />
  }
}
