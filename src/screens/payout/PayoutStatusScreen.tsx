import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { type StepState, Timeline } from '../../components/Timeline'
import { TxLink } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import type { PayoutStatus } from '../../api/payout'
import type { FundingEvent, PayoutRecord, ResultState, TrackingState } from '../../flows/payout'
import { type MessageKey, t } from '../../i18n/i18n'
import { compareDecimal, formatAmount } from '../../lib/decimal'
import { limitText, settlementText } from '../../i18n/limits'
import { railKind, railName } from '../../lib/limits'

type State = TrackingState | ResultState

const ORDER = ['pending', 'converting', 'sent', 'settled'] as const
const KNOWN = new Set<string>([...ORDER, 'rejected', 'returned'])
/** The card payout's own words (en-cardPayout.ts); the others are the payout's. */
const CARD_WORDS = new Set(['heading.sent', 'heading.settled', 'step.sent', 'body.sent', 'body.settled', 'body.returned'])
/** Where a bank payout lands, said for a mobile money or a stablecoin wallet (en-payout.ts `payout.mobile.*`, `payout.wallet.*`). */
const LANDING_WORDS = new Set(['heading.sent', 'step.sent', 'body.sent', 'body.settled', 'arrives'])

export function PayoutStatusScreen({ state, dispatch, config }: { state: State; dispatch: (e: FundingEvent) => void; config: WidgetConfig }) {
  const { record } = state
  const status = state.status
  const name = status && KNOWN.has(status.status) ? status.status : 'pending'
  const currency = status?.fiatCurrency ?? record.fiatCurrency
  const amount = formatAmount(status?.fiatAmount ?? record.fiatAmount, config.locale, currency)
  // A card payout names its card; a bank payout its rail and how long the rail takes.
  const { card } = record
  const railId = status?.rail ?? record.rail
  const rail = railId ? railName(railId) : ''
  const settlement = record.settlement ? limitText(settlementText(record.settlement)) : ''
  // Which words: the card's own where a card payout has them, else the payout's.
  // A bank payout over a mobile money or stablecoin rail lands in that wallet, not in a bank.
  const lands = railId ? railKind(railId) : 'bank'
  const words = (key: string) =>
    (card && CARD_WORDS.has(key) ? `cardPayout.${key}` : lands !== 'bank' && LANDING_WORDS.has(key) ? `payout.${lands}.${key}` : `payout.${key}`) as MessageKey
  // An underfunded card payout is paid, with less than quoted: said, never hidden.
  const paidLess = card && status?.fiatAmount && compareDecimal(status.fiatAmount, record.fiatAmount) < 0
  const reason = status?.reason ?? t('payout.reason.unknown')
  const params = { amount, rail, settlement, reason, currency, symbol: record.symbol, wallet: record.sender ?? '' }
  const failed = name === 'rejected' || name === 'returned'
  // Where a bounce or refusal happened: a return comes after `sent`, a refusal before it.
  const at = name === 'returned' ? 2 : name === 'rejected' ? (status?.depositTxHash ? 1 : 0) : ORDER.indexOf(name as (typeof ORDER)[number])
  const steps = ORDER.map((step, i) => {
    const stateOf: StepState = failed ? (i < at ? 'done' : i === at ? 'failed' : 'todo') : i < at || name === 'settled' ? 'done' : i === at ? 'active' : 'todo'
    return { label: t(words(`step.${step}`), { currency }), state: stateOf }
  })
  const chain = chainOf(config, record.chain)
  return (
    <Screen title={t(words(`heading.${name}`))}>
      {state.tag === 'tracking' && state.alreadyFunded && <Notice tone="info">{t('payout.alreadyFunded')}</Notice>}
      <p role="status" class="hint">
        {status && !KNOWN.has(status.status) ? t('payout.status.other', { status: status.status }) : t(words(`body.${name}`), params)}
      </p>
      {paidLess && (
        <Notice tone="warning">
          {t('cardPayout.underfunded', { symbol: record.symbol, paid: amount, quoted: formatAmount(record.fiatAmount, config.locale, currency) })}
        </Notice>
      )}
      <Timeline steps={steps} />
      <Summary record={record} status={status} amount={amount} rail={rail} arrives={t(card ? 'cardPayout.arrives' : words('arrives'))} locale={config.locale} />
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

/** What was sent, what arrives, and where: the card, or the rail (and the bank's reference once it has one). */
function Summary({
  record,
  status,
  amount,
  rail,
  arrives,
  locale,
}: {
  record: PayoutRecord
  status?: PayoutStatus
  amount: string
  rail: string
  arrives: string
  locale: string
}) {
  const { card } = record
  return (
    <dl class="summary">
      <dt>{t('payout.youSend')}</dt>
      <dd>
        {formatAmount(record.depositAmount, locale)} {record.symbol}
      </dd>
      <dt>{arrives}</dt>
      <dd>{amount}</dd>
      {card ? (
        <>
          <dt>{t('cardPayout.cardRow')}</dt>
          <dd>{t('cardPayout.cardValue', { brand: card.brand.charAt(0).toUpperCase() + card.brand.slice(1), last4: card.last4 })}</dd>
        </>
      ) : (
        <>
          <dt>{t('payout.railRow')}</dt>
          <dd>{rail}</dd>
        </>
      )}
      {status?.bankReference && (
        <>
          <dt>{t('payout.bankReference')}</dt>
          <dd>{status.bankReference}</dd>
        </>
      )}
    </dl>
  )
}
