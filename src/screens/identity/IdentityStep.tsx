import { ButtonLink } from '../../components/ButtonLink'
import { Notice } from '../../components/Notice'
import { partnerProblemText } from '../../errors/words'
import { Screen } from '../../components/Screen'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { enOnboardingLater } from '../../i18n/en-onboardingLater'
import { addEnglish, t } from '../../i18n/i18n'

// Its English strings come with it.
addEnglish(enOnboardingLater)

type Dispatch = (e: IdentityEvent) => void

export function IdentityStep({
  state,
  dispatch,
  identityHref,
}: {
  state: Extract<IdentityState, { tag: 'identity' }>
  dispatch: Dispatch
  identityHref: string
}) {
  return (
    <Screen title={t('onboarding.identityHeading')}>
      {state.serverMessage && (
        <Notice tone="error" code={state.serverMessage.problem.code}>
          {partnerProblemText(state.serverMessage.problem)}
        </Notice>
      )}
      {state.rejectedCode && <Notice tone="warning">{t('onboarding.identityAgain')}</Notice>}
      <p>{t('onboarding.identityBody')}</p>
      <div class="actions">
        <button data-back type="button" class="secondary" onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
        <ButtonLink class="button primary" href={identityHref} target="_top">
          {t('onboarding.identityGo')}
        </ButtonLink>
      </div>
    </Screen>
  )
}
