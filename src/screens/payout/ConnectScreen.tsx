import { Screen } from '../../components/Screen'
import { SessionButton, isWalletConnect } from '../../components/SessionButton'
import { type WidgetConfig, chainOf } from '../../config/config'
import { sendProblemText } from '../../errors/words'
import type { ConnectState, FundingEvent, Source } from '../../flows/payout'
import { walletAppsPart } from '../../components/byAddressParts'
import { useLazyPart } from '../../kernel/lazyPart'
import { enPayoutByAddress } from '../../i18n/en-payoutByAddress'
import { addEnglish, t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { WalletChoices } from './WalletChoices'
import { WalletProblem } from './WalletProblem'

addEnglish(enPayoutByAddress)

/** The wallet that will fund the payout, connected after the price and before anything personal. */
export function ConnectScreen({
  state,
  dispatch,
  source,
  config,
  byAddress,
}: {
  state: ConnectState
  dispatch: (e: FundingEvent) => void
  source: Source
  config: WidgetConfig
  /** The account's wallet is known (a signed link, a kept buyer): it may pay from another wallet or an exchange (flows/payout/owner.ts). */
  byAddress: boolean
}) {
  const idle = state.work === 'idle'
  const amount = formatAmount(state.quote.cryptoAmount, config.locale)
  // No wallet here: on a phone, the wallet apps' own browsers (components/WalletApps.tsx, fetched then).
  const none = state.connection.tag === 'wallets' && state.connection.wallets.length === 0
  const Apps = useLazyPart(walletAppsPart, none)
  return (
    <Screen title={t('payout.connectHeading')}>
      <p>{t('payout.connectIntro', { amount, symbol: source.symbol })}</p>
      <WalletChoices connection={state.connection} disabled={!idle} dispatch={dispatch} />
      {none && Apps && Apps !== 'failed' && <Apps />}
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
        {/* A session on another account than the one that must pay: ended here and on the phone, a new pairing may name the right one. */}
        {isWalletConnect(state.wallet) && <SessionButton disabled={!idle} dispatch={dispatch} />}
        {byAddress && (
          <button type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'BY_ADDRESS' })}>
            {t('payout.byAddress')}
          </button>
        )}
      </div>
    </Screen>
  )
}
