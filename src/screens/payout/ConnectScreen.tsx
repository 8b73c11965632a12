import { Screen } from '../../components/Screen'
import { type WidgetConfig, chainOf } from '../../config/config'
import { sendProblemText } from '../../errors/words'
import type { ConnectState, FundingEvent, Source } from '../../flows/payout'
import { t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { WalletChoices } from './WalletChoices'
import { WalletProblem } from './WalletProblem'

/** The wallet that will fund the payout, connected after the price and before anything personal. */
export function ConnectScreen({
  state,
  dispatch,
  source,
  config,
}: {
  state: ConnectState
  dispatch: (e: FundingEvent) => void
  source: Source
  config: WidgetConfig
}) {
  const idle = state.work === 'idle'
  const amount = formatAmount(state.quote.cryptoAmount, config.locale)
  return (
    <Screen title={t('payout.connectHeading')}>
      <p>{t('payout.connectIntro', { amount, symbol: source.symbol })}</p>
      <WalletChoices connection={state.connection} disabled={!idle} dispatch={dispatch} />
      {!idle && <p role="status">{t('payout.work.connecting')}</p>}
      {state.problem && (
        <WalletProblem
          problem={state.problem}
          text={sendProblemText(state.problem, {
            flow: 'payout',
            chain: chainOf(config, source.chainId).name,
            symbol: source.symbol,
            amount: state.quote.cryptoAmount,
            format: (v) => formatAmount(v, config.locale),
          })}
        />
      )}
      <div class="actions">
        <button data-back type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
      </div>
    </Screen>
  )
}
