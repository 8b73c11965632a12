import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { type StepState, Timeline } from '../../components/Timeline'
import { TxLink } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import type { PayoutEvent, PayoutState } from '../../flows/payout/machine'
import { type MessageKey, t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { limitText, settlementText } from '../../i18n/limits'
import { railName } from '../../lib/limits'

type State = Extract<PayoutState, { tag: 'tracking' | 'result' }>

const ORDER = ['pending', 'converting', 'sent', 'settled'] as const
const KNOWN = new Set<string>([...ORDER, 'rejected', 'returned'])

export function PayoutStatusScreen({ state, dispatch, config }: { state: State; dispatch: (e: PayoutEvent) => void; config: WidgetConfig }) {
  const { record } = state
  const status = state.status
  const name = status && KNOWN.has(status.status) ? status.status : 'pending'
  const currency = status?.fiatCurrency ?? record.fiatCurrency
  const amount = formatAmount(status?.fiatAmount ?? record.fiatAmount, config.locale, currency)
  const rail = railName(status?.rail ?? record.rail)
  const settlement = limitText(settlementText(record.settlement))
  const reason = status?.reason ?? t('payout.reason.unknown')
  const params = { amount, rail, settlement, reason, currency, symbol: record.symbol, wallet: record.sender ?? '' }
  const failed = name === 'rejected' || name === 'returned'
  // Where a bounce or refusal happened: a return comes after `sent`, a refusal before it.
  const at = name === 'returned' ? 2 : name === 'rejected' ? (status?.depositTxHash ? 1 : 0) : ORDER.indexOf(name as (typeof ORDER)[number])
  const steps = ORDER.map((step, i) => {
    const stateOf: StepState = failed ? (i < at ? 'done' : i === at ? 'failed' : 'todo') : i < at || name === 'settled' ? 'done' : i === at ? 'active' : 'todo'
    return { label: t(`payout.step.${step}`, { currency }), state: stateOf }
  })
  const chain = chainOf(config, record.chain)
  return (
    <Screen title={t(`payout.heading.${name}` as MessageKey)}>
      {state.tag === 'tracking' && state.alreadyFunded && <Notice tone="info">{t('payout.alreadyFunded')}</Notice>}
      <p role="status" class="hint">
        {status && !KNOWN.has(status.status) ? t('payout.status.other', { status: status.status }) : t(`payout.body.${name}` as MessageKey, params)}
      </p>
      <Timeline steps={steps} />
      <dl class="summary">
        <dt>{t('payout.youSend')}</dt>
        <dd>
          {formatAmount(record.depositAmount, config.locale)} {record.symbol}
        </dd>
        <dt>{t('payout.arrives')}</dt>
        <dd>{amount}</dd>
        <dt>{t('payout.railRow')}</dt>
        <dd>{rail}</dd>
        {status?.bankReference && (
          <>
            <dt>{t('payout.bankReference')}</dt>
            <dd>{status.bankReference}</dd>
          </>
        )}
      </dl>
      {record.txHash && <TxLink chain={chain} hash={record.txHash} label={t('payout.tx')} />}
      {state.tag === 'tracking' && (
        <>
          {state.tab === 'elsewhere' && <Notice tone="info">{t('app.elsewhere')}</Notice>}
          <p class="muted">{t('track.closeOk')}</p>
          {state.problem && <ProblemNotice problem={state.problem} onRetry={() => dispatch({ type: 'RETRY' })} />}
        </>
      )}
      {state.tag === 'result' && state.buyer && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => dispatch({ type: 'RESTART' })}>
            {t('payout.newPayout')}
          </button>
        </div>
      )}
    </Screen>
  )
}
