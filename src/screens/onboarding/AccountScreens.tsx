import { partnerProblemText } from '../../errors/words'
import { CopyField } from '../../components/CopyField'
import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { OnboardingEvent, OnboardingState } from '../../flows/onboarding/machine'
import { enFiatLater } from '../../i18n/en-fiatLater'
import { type MessageKey, addEnglish, t } from '../../i18n/i18n'
import { bpsToPercent, groupIban } from '../../lib/bank'
import { formatAmount } from '../../lib/decimal'

// The account screens' English strings come with them.
addEnglish(enFiatLater)

type Dispatch = (e: OnboardingEvent) => void
const KNOWN: Record<string, MessageKey> = {
  iban: 'fiat.iban',
  bankName: 'fiat.bankName',
  swiftCode: 'fiat.swiftCode',
  accountName: 'fiat.accountName',
  accountNumber: 'fiat.accountNumber',
  sortCode: 'fiat.sortCode',
  routingNumber: 'fiat.routingNumber',
  clabe: 'fiat.clabe',
}

/** On a screen resumed from storage: on a shared device it may be the previous buyer's account. */
function NotYou({ dispatch }: { dispatch: Dispatch }) {
  return (
    <div class="actions">
      <button type="button" class="secondary" onClick={() => dispatch({ type: 'RESTART' })}>
        {t('fiat.notYou')}
      </button>
    </div>
  )
}

export function OpeningScreen({ state, dispatch }: { state: Extract<OnboardingState, { tag: 'opening' }>; dispatch: Dispatch }) {
  return (
    <Screen title={t('fiat.openingHeading')}>
      {state.problem ? (
        <ProblemNotice
          problem={state.problem}
          text={partnerProblemText(state.problem)}
          onRetry={() => dispatch({ type: 'RETRY' })}
        />
      ) : (
        <p role="status">
          {state.kycStatus ? t('fiat.kycStatus', { status: state.kycStatus }) : state.kycPending ? t('fiat.kycPending') : t('fiat.opening')}
        </p>
      )}
      {state.resumed && <NotYou dispatch={dispatch} />}
    </Screen>
  )
}

export function RejectedScreen() {
  return (
    <Screen title={t('fiat.rejectedHeading')}>
      <Notice tone="error">{t('fiat.rejectedBody')}</Notice>
    </Screen>
  )
}

export function AccountScreen({
  state,
  dispatch,
  locale,
}: { state: Extract<OnboardingState, { tag: 'tracking' | 'result' }>; dispatch: Dispatch; locale: string }) {
  const { details, feeBps } = state.record
  const { reference, ...rest } = details
  const funded = state.tag === 'result'
  return (
    <Screen title={t(funded ? 'fiat.fundedHeading' : 'fiat.accountHeading')}>
      {funded && (
        <Notice tone="info">
          {/* The asset the service names; never the configured destination's symbol. */}
          {state.deliveredAsset
            ? t('fiat.fundedBody', { amount: formatAmount(state.deliveredAmount, locale), token: state.deliveredAsset })
            : t('fiat.fundedBodyNoAsset', { amount: formatAmount(state.deliveredAmount, locale) })}
        </Notice>
      )}
      {reference && (
        <>
          <dl class="bank-details">
            <CopyField label={t('fiat.reference')} value={reference} large />
          </dl>
          <p class="reference-warning">{t('fiat.referenceWarning')}</p>
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
      <p class="muted">{t('fiat.fee', { percent: formatAmount(bpsToPercent(feeBps), locale) })}</p>
      {state.tag === 'tracking' && state.tab === 'elsewhere' && <Notice tone="info">{t('app.elsewhere')}</Notice>}
      {funded ? (
        <p>{t('fiat.keepDetails')}</p>
      ) : (
        <p role="status" class="hint">{t('fiat.waiting')}</p>
      )}
      {state.tag === 'tracking' && state.problem && <ProblemNotice problem={state.problem} onRetry={() => dispatch({ type: 'RETRY' })} />}
      {state.tag === 'tracking' && state.resumed && <NotYou dispatch={dispatch} />}
    </Screen>
  )
}
