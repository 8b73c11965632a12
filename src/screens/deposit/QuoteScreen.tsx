import { Amount } from '../../components/Amount'
import { Countdown } from '../../components/Countdown'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { type StepState, Timeline } from '../../components/Timeline'
import { TxLink } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import type { DepositEvent, DepositState, Notice as QuoteNotice, SendStep } from '../../flows/deposit/machine'
import { t } from '../../i18n/i18n'

type State = Extract<DepositState, { tag: 'quote' }>

const order: SendStep[] = ['switching', 'checking', 'approving', 'approvalConfirming', 'sending']

export function QuoteScreen({ state, dispatch, config }: { state: State; dispatch: (e: DepositEvent) => void; config: WidgetConfig }) {
  const { quote } = state
  const source = config.sources[state.form.source] ?? config.sources[0]
  const destination = config.destination ?? config.defaultDestination
  const sourceChain = chainOf(config, quote.transaction.chainId)
  const destChain = chainOf(config, destination.chainId)
  const locale = config.locale
  const idle = state.step === 'idle'
  const at = order.indexOf(state.step)
  const stepState = (from: number, to = from): StepState => (at < 0 ? 'todo' : at > to ? 'done' : at >= from ? 'active' : 'todo')
  return (
    <Screen title={t('quote.heading')}>
      <table class={`quote ${state.notice?.kind === 'refreshed' ? 'fresh' : ''}`}>
        <tbody>
          <tr>
            <th scope="row">{t('quote.youSend')}</th>
            <td><Amount value={quote.amountIn} symbol={source.symbol} locale={locale} /> · {sourceChain.name}</td>
          </tr>
          <tr>
            <th scope="row">{t('quote.fee')}</th>
            <td><Amount value={quote.fee} symbol={source.symbol} locale={locale} /></td>
          </tr>
          <tr class="total">
            <th scope="row">{t('quote.youReceive')}</th>
            <td><Amount value={quote.amountOut} symbol={destination.symbol} locale={locale} /> · {destChain.name}</td>
          </tr>
        </tbody>
      </table>
      {idle && <Countdown expiresAt={quote.expiresAt} />}
      {state.notice && <QuoteNoticeView notice={state.notice} chain={sourceChain.name} symbol={source.symbol} amount={quote.amountIn} />}
      {!idle && (
        <>
          <Timeline
            steps={[
              { label: t('steps.switch', { chain: sourceChain.name }), state: stepState(0) },
              ...(quote.approval
                ? [{
                    label: t('steps.approve', { token: source.symbol }),
                    state: stepState(2, 3),
                    extra: state.approvalHash && <TxLink chain={sourceChain} hash={state.approvalHash} />,
                  }]
                : []),
              { label: t('steps.send'), state: stepState(4) },
            ]}
          />
          <p role="status" class="hint">{t(stepHint(state.step))}</p>
        </>
      )}
      <div class="actions">
        <button type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
        <button type="button" class="primary" disabled={!idle} onClick={() => dispatch({ type: 'CONFIRM' })}>
          {t('quote.confirm')}
        </button>
      </div>
    </Screen>
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
    default:
      return 'send.checking'
  }
}

function QuoteNoticeView({ notice, chain, symbol, amount }: { notice: QuoteNotice; chain: string; symbol: string; amount: string }) {
  switch (notice.kind) {
    case 'refreshed':
      return <Notice tone="info">{t('quote.refreshed')}</Notice>
    case 'elsewhere':
      return <Notice tone="info">{t('send.elsewhere')}</Notice>
    case 'wrongChain':
      return <Notice tone="warning">{t('send.wrongChain', { chain })}</Notice>
    case 'insufficient':
      return <Notice tone="error">{t('send.insufficient', { balance: notice.balance, token: symbol, amount })}</Notice>
    case 'insufficientGas':
      return <Notice tone="error">{t('send.insufficientGas', { chain })}</Notice>
    case 'wallet':
      return (
        <Notice tone={notice.problem === 'rejected' ? 'info' : 'error'}>
          {t(notice.problem === 'rejected' ? 'send.rejected' : notice.problem === 'pending' ? 'send.pending' : notice.problem === 'unsupportedChain' ? 'wallet.problem.unsupportedChain' : notice.problem === 'disconnected' ? 'wallet.problem.disconnected' : 'send.unknown')}
        </Notice>
      )
  }
}
