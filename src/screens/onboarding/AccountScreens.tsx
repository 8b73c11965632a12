import { partnerProblemText } from '../../errors/words'
import { CopyField } from '../../components/CopyField'
import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { OnboardingEvent, OnboardingState } from '../../flows/onboarding'
import { enOnboardingLater } from '../../i18n/en-onboardingLater'
import { type MessageKey, addEnglish, t } from '../../i18n/i18n'
import { bpsToPercent, groupIban } from '../../lib/bank'
import { formatAmount } from '../../lib/decimal'

// The account screens' English strings come with them.
addEnglish(enOnboardingLater)

type Dispatch = (e: OnboardingEvent) => void
const KNOWN: Record<string, MessageKey> = {
  iban: 'onboarding.iban',
  bankName: 'onboarding.bankName',
  swiftCode: 'onboarding.swiftCode',
  accountName: 'onboarding.accountName',
  accountNumber: 'onboarding.accountNumber',
  sortCode: 'onboarding.sortCode',
  routingNumber: 'onboarding.routingNumber',
  clabe: 'onboarding.clabe',
}

/** On a screen resumed from storage: on a shared device it may be the previous buyer's account. */
function NotYou({ dispatch }: { dispatch: Dispatch }) {
  return (
    <div class="actions">
      <button type="button" class="secondary" onClick={() => dispatch({ type: 'RESTART' })}>
        {t('onboarding.notYou')}
      </button>
    </div>
  )
}

export function OpeningScreen({ state, dispatch }: { state: Extract<OnboardingState, { tag: 'opening' }>; dispatch: Dispatch }) {
  return (
    <Screen title={t('onboarding.openingHeading')}>
      {state.problem ? (
        <ProblemNotice problem={state.problem} text={partnerProblemText(state.problem)} onRetry={() => dispatch({ type: 'RETRY' })} />
      ) : (
        <p role="status">
          {state.kycStatus ? t('onboarding.kycStatus', { status: state.kycStatus }) : state.kycPending ? t('onboarding.kycPending') : t('onboarding.opening')}
        </p>
      )}
      {state.resumed && <NotYou dispatch={dispatch} />}
    </Screen>
  )
}

export function RejectedScreen() {
  return (
    <Screen title={t('onboarding.rejectedHeading')}>
      <Notice tone="error">{t('onboarding.rejectedBody')}</Notice>
    </Screen>
  )
}

export function AccountScreen({
  state,
  dispatch,
  locale,
}: {
  state: Extract<OnboardingState, { tag: 'tracking' | 'result' }>
  dispatch: Dispatch
  locale: string
}) {
  const { details, feeBps } = state.record
  const { reference, ...rest } = details
  const funded = state.tag === 'result'
  const percent = formatAmount(bpsToPercent(feeBps), locale)
  return (
    <Screen title={t(funded ? 'onboarding.fundedHeading' : 'onboarding.accountHeading')}>
      {funded && (
        <Notice tone="info">
          {/* The asset the service names; never the configured destination's symbol. */}
          {/* What landed on the account (the contract gives it no unit); the account's fee comes off it. */}
          {state.deliveredAsset
            ? t('onboarding.fundedBody', { amount: formatAmount(state.deliveredAmount, locale), percent, token: state.deliveredAsset })
            : t('onboarding.fundedBodyNoAsset', { amount: formatAmount(state.deliveredAmount, locale), percent })}
        </Notice>
      )}
      {reference && (
        <>
          <dl class="bank-details">
            <CopyField label={t('onboarding.reference')} value={reference} large />
          </dl>
          <p class="reference-warning">{t('onboarding.referenceWarning')}</p>
        </>
      )}
      <dl class="bank-details">
        {Object.entries(rest).map(([key, value]) => (
          <CopyField
            label={KNOWN[key] ? t(KNOWN[key]) : key}
            value={key === 'iban' ? value.replace(/\s+/g, '') : value}
            display={key === 'iban' ? groupIban(value) : undefined}
          />
        ))}
      </dl>
      <p class="muted">{t('onboarding.fee', { percent })}</p>
      {state.tag === 'tracking' && state.tab === 'elsewhere' && <Notice tone="info">{t('app.elsewhere')}</Notice>}
      {funded ? (
        <p>{t('onboarding.keepDetails')}</p>
      ) : (
        <p role="status" class="hint">
          {t('onboarding.waiting')}
        </p>
      )}
      {state.tag === 'tracking' && state.problem && <ProblemNotice problem={state.problem} onRetry={() => dispatch({ type: 'RETRY' })} />}
      {state.tag === 'tracking' && state.resumed && <NotYou dispatch={dispatch} />}
    </Screen>
  )
}
