import { useEffect } from 'preact/hooks'
import { returnToThisLink } from '../../config/link'
import { withoutPairs } from '../../config/signedLink'
import { enFiat } from '../../i18n/en-fiat'
import { addEnglish } from '../../i18n/i18n'
import { systemClock } from '../../kernel/types'
import { AccountScreen, OpeningScreen, RejectedScreen } from '../../screens/onboarding/AccountScreens'
import { DetailsScreen } from '../../screens/onboarding/DetailsScreen'
import { IdentityStep, WalletStep } from '../../screens/onboarding/StartScreens'
import type { Services } from '../../services'
import { safeLocalStorage, safeSessionStorage } from '../../storage/flowStore'
import { useFlowMachine } from '../../kernel/useFlowMachine'
import { onboardingEvents } from './hostEvents'
import { createOnboardingEffects } from './effects'
import { type OnboardingEvent, type OnboardingState, emptyApplicant, initialOnboardingState, onboardingTransition } from './machine'
import { identityDraft } from './draft'
import { onboardingStore, usedAuthCodes } from './persisted'

// This flow's English strings come with its chunk, not with the first load.
addEnglish(enFiat)

const STEPS: Record<OnboardingState['tag'], number> = { wallet: 1, identity: 2, details: 3, opening: 3, rejected: 3, account: 4, funded: 4 }

export default function OnboardingFlow({ services, onStep }: { services: Services; onStep: (step: number, of: number) => void }) {
  const { config } = services
  const [state, dispatch] = useFlowMachine<OnboardingState, OnboardingEvent>(() => {
    const storage = safeLocalStorage()
    const store = onboardingStore(storage)
    const used = usedAuthCodes(storage)
    // The code is single use: drop it from the address bar so a reload cannot send it again.
    const code = config.authCode && !used.has(config.authCode) ? config.authCode : undefined
    // Verbatim, not re-serialised: a signed link must still verify after a reload.
    if (config.authCode) history.replaceState(history.state, '', withoutPairs(location.href, 'authCode'))
    const typed = identityDraft(safeSessionStorage()).take()
    const wallet = config.walletAddress ?? typed?.form.wallet ?? ''
    return {
      initial: initialOnboardingState({ ...emptyApplicant, ...typed?.form, wallet }, code, store.load(), typed?.serverMessage),
      transition: onboardingTransition,
      observe: (prev, next) => {
        for (const e of onboardingEvents(prev, next)) services.emit(e.name, e.payload as never)
      },
      effects: (dispatch) => createOnboardingEffects({ config, api: services.api, store, usedCodes: used, clock: systemClock, emit: services.emit }, dispatch),
    }
  }, [services])
  useEffect(() => onStep(STEPS[state.tag], 4), [STEPS[state.tag]])
  // Before the buyer leaves to verify (a full navigation), what they typed waits in this tab, with
  // what the bank said when it refused them.
  const refused = state.tag === 'identity' ? state.serverMessage : undefined
  useEffect(() => {
    if (state.tag === 'identity') identityDraft(safeSessionStorage()).put({ form: state.form, serverMessage: refused })
  }, [state.tag, refused])
  // A code handed over later by the embedding (script callback, iframe message).
  const authCode = services.live.value.authCode
  useEffect(() => {
    if (authCode && authCode !== config.authCode) dispatch({ type: 'AUTH_CODE', code: authCode })
  }, [authCode])

  switch (state.tag) {
    case 'wallet':
      return <WalletStep state={state} dispatch={dispatch} />
    case 'identity':
      return <IdentityStep state={state} dispatch={dispatch} identityHref={identityHref(config.identityUrl ?? '')} />
    case 'details':
      return <DetailsScreen state={state} dispatch={dispatch} locale={config.locale} />
    case 'opening':
      return <OpeningScreen state={state} dispatch={dispatch} />
    case 'rejected':
      return <RejectedScreen />
    case 'account':
    case 'funded':
      return <AccountScreen state={state} dispatch={dispatch} locale={config.locale} />
  }
}

/** The identity provider returns to this very link with `authCode` added (see returnToThisLink). */
function identityHref(identityUrl: string): string {
  const url = new URL(identityUrl)
  url.searchParams.set('returnUrl', returnToThisLink(location.href, 'onboarding'))
  return url.href
}
