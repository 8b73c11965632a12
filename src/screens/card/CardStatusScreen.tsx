import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { shortHash } from '../../components/TxLink'
import type { WidgetConfig } from '../../config/config'
import { type CardEvent, type CardState, waysOn } from '../../flows/card'
import { addEnglish, t, type MessageKey } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { Environment } from './Environment'
import { enCardLater } from '../../i18n/en-cardLater'

// The strings of the card screens after the form come with them (and with the effects that lead there).
addEnglish(enCardLater)

type State = Extract<CardState, { tag: 'tracking' | 'result' }>

/** Reasons that mean the card was never charged; for any other (or none) the screen claims nothing. */
const DECLINED = new Set(['card_declined', 'declined', 'insufficient_funds', 'authentication_failed'])

function failedBody(reason: string | undefined, id: string): string {
  if (reason && DECLINED.has(reason)) return t('card.failed.body')
  if (reason === 'delivery_failed') return t('card.failed.afterPayment', { id })
  return t('card.failed.unknown', { id })
}

/** What was sent, as the status names it: the quote's figure is no delivered amount, so without one none is named. */
function completedBody(status: { cryptoAmount?: string; cryptoCurrency?: string }, quoted: string, locale: string): string {
  const currency = status.cryptoCurrency ?? quoted
  if (status.cryptoAmount === undefined) return t('card.completed.bodyNoAmount', { currency })
  return t('card.completed.body', { amount: formatAmount(status.cryptoAmount, locale), currency })
}

export function CardStatusScreen({ state, dispatch, config }: { state: State; dispatch: (e: CardEvent) => void; config: WidgetConfig }) {
  const { purchase } = state
  const status = state.status
  const summary = (
    <dl class="summary">
      <dt>{t('card.youPay')}</dt>
      <dd>
        {formatAmount(purchase.total, config.locale)} {purchase.currency}
      </dd>
      <dt>{t('card.youGet')}</dt>
      <dd>
        {formatAmount(status?.cryptoAmount ?? purchase.cryptoAmount, config.locale)} {status?.cryptoCurrency ?? purchase.cryptoCurrency}
      </dd>
    </dl>
  )
  if (state.tag === 'result') {
    const outcome = state.status.status as 'completed' | 'failed' | 'cancelled' | 'expired'
    return (
      <Screen title={t(`card.${outcome}.heading` as MessageKey)}>
        <Environment environment={state.status.environment} />
        <Notice tone={outcome === 'completed' ? 'info' : 'error'}>
          {outcome === 'completed'
            ? completedBody(state.status, purchase.cryptoCurrency, config.locale)
            : outcome === 'failed'
              ? failedBody(state.status.reason, purchase.id)
              : t(`card.${outcome}.body` as MessageKey, { id: purchase.id })}
        </Notice>
        {state.status.reason && <p>{t('card.reason', { reason: state.status.reason })}</p>}
        {summary}
        {state.status.txHash && (
          <p>
            {t('card.tx')}: <code title={state.status.txHash}>{shortHash(state.status.txHash)}</code>
          </p>
        )}
        <div class="actions">
          <button type="button" class="primary" onClick={() => dispatch({ type: 'RESTART' })}>
            {t('card.startOver')}
          </button>
        </div>
      </Screen>
    )
  }
  const known = status?.status === 'pending' || status?.status === 'processing'
  return (
    <Screen title={t('card.statusHeading')}>
      <Environment environment={status?.environment ?? purchase.environment} />
      {summary}
      <p role="status" class="hint">
        {!status ? t('app.loading') : known ? t(`card.status.${status.status}` as MessageKey) : t('card.status.unknown', { status: status.status })}
      </p>
      {state.tab === 'elsewhere' && <Notice tone="info">{t('app.elsewhere')}</Notice>}
      <p class="muted">{t('track.closeOk')}</p>
      {state.problem && <ProblemNotice problem={state.problem} onRetry={() => dispatch({ type: 'RETRY' })} />}
      <WaysOn state={state} dispatch={dispatch} />
    </Screen>
  )
}

/** Nothing paid yet (the card page was closed): its page again, or a new purchase. */
function WaysOn({ state, dispatch }: { state: State; dispatch: (e: CardEvent) => void }) {
  const ways = waysOn(state)
  if (!ways.restart) return null
  return (
    <>
      <p class="muted">{t(ways.reopen ? 'card.closedPage' : 'card.closedPageNoLink')}</p>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => dispatch({ type: 'RESTART' })}>
          {t('card.startAgain')}
        </button>
        {ways.reopen && (
          <button type="button" class="primary" onClick={() => dispatch({ type: 'REOPEN' })}>
            {t('card.reopenPage')}
          </button>
        )}
      </div>
    </>
  )
}
