import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { TxLink } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import { type DepositEvent, type DepositState, unrecorded } from '../../flows/deposit'
import { t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { Unrecorded } from './Unrecorded'

type State = Extract<DepositState, { tag: 'result' }>

export function ResultScreen({ state, dispatch, config }: { state: State; dispatch: (e: DepositEvent) => void; config: WidgetConfig }) {
  const { tracking, outcome } = state
  const source = chainOf(config, tracking.chainId)
  const dest = chainOf(config, tracking.summary.destChainId)
  return (
    <Screen title={t(`${outcome}.heading`)}>
      {outcome === 'done' ? (
        <Notice tone="info">
          {/* The status names no delivered amount: the quoted one is said as quoted. */}
          {t('done.body', {
            amount: formatAmount(tracking.summary.amountOut, config.locale),
            token: tracking.summary.destSymbol,
            chain: dest.name,
          })}
        </Notice>
      ) : (
        <Notice tone={outcome === 'expired' || outcome === 'dropped' || outcome === 'unfollowed' ? 'info' : 'error'}>{t(`${outcome}.body`)}</Notice>
      )}
      {/* Delivered, and the kit refused to record it: what to do if the shop does not show it. */}
      {outcome === 'done' && unrecorded(tracking) && <Unrecorded hash={tracking.txHash} />}
      <ul class="plain">
        {outcome === 'done' && tracking.deliveredHash && (
          <li>
            <TxLink chain={dest} hash={tracking.deliveredHash} label={t('done.tx')} />
          </li>
        )}
        {tracking.txHash && (
          <li>
            <TxLink chain={source} hash={tracking.txHash} label={t('result.origin')} />
          </li>
        )}
      </ul>
      <div class="actions">
        <button type="button" class="primary" onClick={() => dispatch({ type: 'RESTART' })}>
          {t('app.startOver')}
        </button>
      </div>
    </Screen>
  )
}
