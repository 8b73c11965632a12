import { Amount } from '../../components/Amount'
import { Countdown } from '../../components/Countdown'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { type StepState, Timeline } from '../../components/Timeline'
import { TxLink } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import {
  asksWalletLink,
  type DepositEvent,
  type DepositState,
  NO_SIGN_IN,
  type Notice as DepositNotice,
  noticeContext,
  noticeText,
  type Preview,
  type SendStep,
} from '../../flows/deposit'
import { t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'

type State = Extract<DepositState, { tag: 'quote' }>

const order: SendStep[] = ['switching', 'checking', 'linking', 'approving', 'approvalConfirming', 'sending', 'batching']

export function QuoteScreen({ state, dispatch, config }: { state: State; dispatch: (e: DepositEvent) => void; config: WidgetConfig }) {
  const { quote } = state
  const sourceChain = chainOf(config, quote.transaction.chainId)
  const idle = state.work === 'idle'
  const preview = state.preview
  // Only a judged preview lets the buyer send; one that could not judge says so and can run again.
  const safe = preview?.kind === 'ready' && preview.safe
  const unchecked = preview?.kind === 'unavailable' || (preview?.kind === 'ready' && !preview.safe)
  // The partner's kit, asked as the price was, knows no buyer for this link: said here, nothing to confirm.
  const noSignIn = !!state.session.noSignIn
  const notice = state.notice ?? (noSignIn ? NO_SIGN_IN : undefined)
  const confirmable = !state.stale && !noSignIn && (safe || preview?.kind === 'short')
  return (
    <Screen title={t('quote.heading')}>
      <QuoteTable state={state} config={config} />
      {!state.preview && (
        <p role="status" class="hint">
          {t('quote.previewing', { chain: sourceChain.name })}
        </p>
      )}
      {state.stale && <Notice tone="warning">{t(state.stale === 'expired' ? 'quote.staleExpired' : 'quote.staleFar')}</Notice>}
      {!state.stale && unchecked && (
        <Notice tone="warning">
          {t(state.preview?.kind === 'unavailable' ? 'quote.previewUnavailable' : 'quote.previewUnchecked', { chain: sourceChain.name })}
        </Notice>
      )}
      {idle && !state.stale && <Countdown expiresAt={quote.expiresAt} />}
      {state.refreshed && !notice && <Notice tone="info">{t('quote.refreshed')}</Notice>}
      {notice && <QuoteNoticeView notice={notice} state={state} config={config} />}
      {!idle && <SendSteps state={state} config={config} />}
      <div class="actions">
        <button data-back type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
        {notice?.kind === 'wallet' && notice.problem === 'ended' && idle ? (
          // The wallet ended the connection (a phone that ended the session): connected again, the amount kept.
          <button type="button" class="primary" onClick={() => dispatch({ type: 'WALLET', event: { type: 'DISCONNECT' } })}>
            {t('quote.connectAgain')}
          </button>
        ) : state.stale ? (
          <button type="button" class="primary" disabled={!idle} onClick={() => dispatch({ type: 'REQUOTE' })}>
            {t('quote.newPrice')}
          </button>
        ) : (
          <>
            {unchecked && idle && (
              <button type="button" class="secondary" onClick={() => dispatch({ type: 'RETRY_PREVIEW' })}>
                {t('quote.previewRetry')}
              </button>
            )}
            <button type="button" class="primary" disabled={!idle || !confirmable} onClick={() => dispatch({ type: 'CONFIRM' })}>
              {t('quote.confirm')}
            </button>
          </>
        )}
      </div>
    </Screen>
  )
}

/** What the buyer sends, the fee, what arrives, and what the simulation says leaves the wallet. */
function QuoteTable({ state, config }: { state: State; config: WidgetConfig }) {
  const { quote } = state
  const source = config.sources[state.form.source] ?? config.sources[0]
  const destination = config.destination ?? config.defaultDestination
  const sourceChain = chainOf(config, quote.transaction.chainId)
  const destChain = chainOf(config, destination.chainId)
  const locale = config.locale
  return (
    <table class={`quote ${state.refreshed ? 'fresh' : ''}`}>
      <tbody>
        <tr>
          <th scope="row">{t('quote.youSend')}</th>
          <td>
            <Amount value={quote.amountIn} symbol={source.symbol} locale={locale} /> · {sourceChain.name}
          </td>
        </tr>
        <tr>
          <th scope="row">{t('quote.fee')}</th>
          <td>
            <Amount value={quote.fee} symbol={source.symbol} locale={locale} />
          </td>
        </tr>
        <tr class="total">
          <th scope="row">{t('quote.youReceive')}</th>
          <td>
            <Amount value={quote.amountOut} symbol={destination.symbol} locale={locale} /> · {destChain.name}
          </td>
        </tr>
        {state.preview?.kind === 'ready' && (
          <tr>
            <th scope="row">{t('quote.leaves')}</th>
            <td>
              <Outflow preview={state.preview} locale={locale} />
            </td>
          </tr>
        )}
      </tbody>
    </table>
  )
}

/** The send's steps under way: the chain, the wallet's link (where asked), the approval, the send. */
function SendSteps({ state, config }: { state: State; config: WidgetConfig }) {
  const { quote } = state
  const source = config.sources[state.form.source] ?? config.sources[0]
  const sourceChain = chainOf(config, quote.transaction.chainId)
  const at = order.indexOf(state.work)
  const stepState = (from: number, to = from): StepState => (at < 0 ? 'todo' : at > to ? 'done' : at >= from ? 'active' : 'todo')
  return (
    <>
      <Timeline
        steps={[
          { label: t('steps.switch', { chain: sourceChain.name }), state: stepState(0) },
          // Only where the send asks the partner's kit (flows/deposit/linkWallet.ts).
          ...(asksWalletLink(config) ? [{ label: t('steps.link'), state: stepState(2) }] : []),
          ...(quote.approval
            ? [
                {
                  label: t('steps.approve', { token: source.symbol }),
                  state: stepState(3, 4),
                  extra: state.approvalHash && <TxLink chain={sourceChain} hash={state.approvalHash} />,
                },
              ]
            : []),
          { label: t('steps.send'), state: state.work === 'batching' ? 'active' : stepState(5) },
        ]}
      />
      <p role="status" class="hint">
        {t(stepHint(state.work))}
      </p>
    </>
  )
}

function stepHint(step: SendStep) {
  switch (step) {
    case 'switching':
      return 'send.switching'
    case 'approving':
      return 'send.approving'
    case 'approvalConfirming':
      return 'send.approvalConfirming'
    case 'sending':
      return 'send.confirmInWallet'
    case 'batching':
      return 'send.batching'
    case 'linking':
      return 'send.linking'
    default:
      return 'send.checking'
  }
}

function QuoteNoticeView({ notice, state, config }: { notice: DepositNotice; state: State; config: WidgetConfig }) {
  // Another tab's send and the buyer's own "no" are news; a wrong network, a chain or a sign-in is to fix.
  const news = notice.kind === 'elsewhere' || notice.kind === 'unlinked' || (notice.kind === 'wallet' && notice.problem === 'rejected')
  const toFix =
    notice.kind === 'wrongChain' || (notice.kind === 'check' && (notice.problem.code === 'chain_not_configured' || notice.problem.key === 'link.signIn'))
  return <Notice tone={news ? 'info' : toFix ? 'warning' : 'error'}>{noticeText(notice, noticeContext(state, config))}</Notice>
}

/** "25 USDC + network fee about 0.0003 ETH": what the simulation says leaves the wallet. */
function Outflow({ preview, locale }: { preview: Extract<Preview, { kind: 'ready' }>; locale: string }) {
  const amounts = preview.outflow.map((o) => `${formatAmount(o.amount, locale)} ${o.symbol}`).join(' + ')
  if (preview.fee === undefined) return <span>{amounts}</span>
  return <span>{t('quote.outflow', { amounts, fee: formatAmount(preview.fee, locale), symbol: preview.feeSymbol })}</span>
}
