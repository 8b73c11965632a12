import { BankDetails } from '../../components/BankDetails'
import { CopyField } from '../../components/CopyField'
import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { Timeline } from '../../components/Timeline'
import type { BankDepositEvent, BankDepositState } from '../../flows/bankDeposit'
import { t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { DetailsCountdown } from './DetailsCountdown'
import { bt } from './text'

type State = Extract<BankDepositState, { tag: 'tracking' }>

/** A deposit not yet settled: its details while they take money, then where the transfer is. */
export function FollowScreen({
  state,
  dispatch,
  locale,
  onRestart,
}: {
  state: State
  dispatch: (e: BankDepositEvent) => void
  locale: string
  onRestart: () => void
}) {
  const { deposit, status } = state
  const following = (
    <>
      {state.tab === 'elsewhere' && <Notice tone="info">{t('app.elsewhere')}</Notice>}
      {state.problem && <ProblemNotice problem={state.problem} onRetry={() => dispatch({ type: 'RETRY' })} />}
      <p class="live-status" role="status">
        {bt('bankDeposit.status', { status: bt(`bankDeposit.status.${status.status}`) })}
      </p>
    </>
  )
  if (status.status === 'awaiting_funds') {
    return (
      <Screen title={bt('bankDeposit.sendHeading')}>
        <BankDetails
          details={deposit.details}
          amount={deposit.amount}
          currency={deposit.currency}
          locale={locale}
          countdown={<DetailsCountdown expiresAt={deposit.expiresAt} locale={locale} />}
        />
        <p>{bt('bankDeposit.youReceive')}</p>
        <p class="muted">{bt('bankDeposit.watching')}</p>
        {following}
      </Screen>
    )
  }
  if (status.status === 'expired') {
    return (
      <Screen title={bt('bankDeposit.expiredHeading')}>
        <Notice tone="info">{bt('bankDeposit.expiredBody')}</Notice>
        <dl class="bank-details">
          <CopyField label={bt('bankDeposit.reference')} value={deposit.details.reference} />
          <CopyField label={bt('bankDeposit.amount')} value={deposit.amount} display={formatAmount(deposit.amount, locale, deposit.currency)} />
        </dl>
        <p>{bt('bankDeposit.expiredDont')}</p>
        {following}
        <div class="actions">
          <button type="button" class="secondary" onClick={onRestart}>
            {bt('bankDeposit.newDetails')}
          </button>
        </div>
      </Screen>
    )
  }
  // received, converting, or a status the contract adds later: the money is on its way.
  const converting = status.status === 'converting'
  // Only what the service said arrived: never the amount asked for, in its place.
  const arrived = status.fiatAmount !== undefined ? formatAmount(status.fiatAmount, locale, deposit.currency) : undefined
  return (
    <Screen title={bt('bankDeposit.arrivedHeading')}>
      <Timeline
        steps={[
          { label: arrived ? bt('bankDeposit.stepReceived', { amount: arrived }) : bt('bankDeposit.stepReceivedNoAmount'), state: 'done' },
          { label: bt('bankDeposit.stepConverting'), state: converting ? 'active' : 'todo' },
          { label: bt('bankDeposit.stepDelivered'), state: 'todo' },
        ]}
      />
      <p class="muted">{bt('bankDeposit.watching')}</p>
      {following}
    </Screen>
  )
}
