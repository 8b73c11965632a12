// The identity steps as every bank flow shows them: the wallet, the verification, the details.
import { Notice } from '../../components/Notice'
import { enOnboarding } from '../../i18n/en-onboarding'
import { addEnglish, t } from '../../i18n/i18n'
import type { IdentityEvent, IdentityState } from '../../identity/machine'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'
import { WalletStep } from './WalletStep'

// The identity steps' first-screen strings come with the first bank flow that shows them.
addEnglish(enOnboarding)

/**
 * The verification and details steps, and the identity provider's address with the way back to
 * this link (no partnerToken in it): fetched as soon as the steps show, kept once here.
 */
export const laterSteps = lazyPart(() =>
  Promise.all([import('./LaterSteps'), import('../../config/returnLink')]).then(([steps, { identityHref }]) => ({ ...steps, identityHref })),
)

export function IdentitySteps({
  state,
  dispatch,
  identityUrl,
  flow,
  locale,
  tier,
}: {
  state: IdentityState
  dispatch: (event: IdentityEvent) => void
  identityUrl: string
  flow: string
  locale: string
  tier?: 'higher'
}) {
  const later = useLazyPart(laterSteps, true)
  if (state.tag === 'wallet') return <WalletStep state={state} dispatch={dispatch} />
  if (later === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!later) return <p role="status">{t('app.loading')}</p>
  const { IdentityStep, DetailsScreen, identityHref } = later
  switch (state.tag) {
    case 'identity':
      return <IdentityStep state={state} dispatch={dispatch} identityHref={identityHref(identityUrl, flow, tier)} />
    case 'details':
      return <DetailsScreen state={state} dispatch={dispatch} locale={locale} opensAccount={flow === 'onboarding'} />
  }
}
