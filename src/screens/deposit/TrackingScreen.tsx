import { Amount } from '../../components/Amount'
import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { Timeline } from '../../components/Timeline'
import { TxLink } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import { type DepositEvent, type DepositState, unrecorded } from '../../flows/deposit'
import { t } from '../../i18n/i18n'
import { Unrecorded } from './Unrecorded'

type State = Extract<DepositState, { tag: 'tracking' }>

export function TrackingScreen({ state, dispatch, config }: { state: State; dispatch: (e: DepositEvent) => void; config: WidgetConfig }) {
  const { tracking } = state
  const source = chainOf(config, tracking.chainId)
  const dest = chainOf(config, tracking.summary.destChainId)
  const batching = state.phase === 'batching'
  const confirming = state.phase === 'confirming' || batching
  return (
    <Screen title={t('track.heading')}>
      <dl class="summary">
        <dt>{t('track.sent')}</dt>
        <dd>
          <Amount value={tracking.summary.amountIn} symbol={tracking.summary.sourceSymbol} locale={config.locale} />
        </dd>
        <dt>{t('track.expected')}</dt>
        <dd>
          <Amount value={tracking.summary.amountOut} symbol={tracking.summary.destSymbol} locale={config.locale} />
        </dd>
      </dl>
      <Timeline
        steps={[
          {
            label: t('steps.send'),
            state: batching ? 'active' : 'done',
            extra: tracking.txHash ? <TxLink chain={source} hash={tracking.txHash} /> : undefined,
          },
          { label: t('steps.confirm', { chain: source.name }), state: batching ? 'todo' : confirming ? 'active' : 'done' },
          { label: t('steps.deliver', { chain: dest.name }), state: confirming ? 'todo' : 'active' },
        ]}
      />
      {unrecorded(tracking) && <Unrecorded hash={tracking.txHash} />}
      {state.tab === 'elsewhere' && <Notice tone="info">{t('track.elsewhere')}</Notice>}
      <p role="status" class="hint" hidden={state.unreadable}>
        {state.replaced && `${t('track.replaced')} `}
        {batching ? t('track.batching') : confirming ? t('track.confirming', { chain: source.name }) : t('track.delivering', { chain: dest.name })}
      </p>
      <p class="muted">{t('track.closeOk')}</p>
      {state.missing && (
        <>
          <Notice tone="warning">{t('track.missing', { chain: source.name })}</Notice>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => dispatch({ type: 'STOP_FOLLOWING' })}>
              {t('track.stopFollowing')}
            </button>
          </div>
        </>
      )}
      {state.unreadable && (
        <>
          <Notice tone="warning">{t('track.unreadable', { chain: source.name })}</Notice>
          <div class="actions">
            <button type="button" class="secondary" onClick={() => dispatch({ type: 'STOP_FOLLOWING' })}>
              {t('track.stopUnreadable')}
            </button>
          </div>
        </>
      )}
      {state.problem && <ProblemNotice problem={state.problem} onRetry={() => dispatch({ type: 'RETRY' })} />}
    </Screen>
  )
}
