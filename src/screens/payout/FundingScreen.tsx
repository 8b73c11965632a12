import { useState } from 'preact/hooks'
import { CopyField } from '../../components/CopyField'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { SessionButton, isWalletConnect } from '../../components/SessionButton'
import { type WidgetConfig, chainOf } from '../../config/config'
import { sendProblemText } from '../../errors/words'
import { fundingContext, type FundingEvent, type FundingState, fundingRequest, payoutSourceOf, promptedUnanswered } from '../../flows/payout'
import { addEnglish, type MessageKey, t } from '../../i18n/i18n'
import { payByAddressPart } from '../../components/byAddressParts'
import { useLazyPart } from '../../kernel/lazyPart'
import { enPayoutByAddress } from '../../i18n/en-payoutByAddress'
import { WalletChoices } from './WalletChoices'
import { WalletProblem } from './WalletProblem'
import { formatAmount } from '../../lib/decimal'

addEnglish(enPayoutByAddress)

export function FundingScreen({ state, dispatch, config }: { state: FundingState; dispatch: (e: FundingEvent) => void; config: WidgetConfig }) {
  const { record } = state
  // The wallet was asked before (a reload while its confirmation was open): it may still hold that transfer.
  const prompted = promptedUnanswered(record)
  const [nothingPending, setNothingPending] = useState(false)
  const chain = chainOf(config, record.chain).name
  const amount = formatAmount(record.depositAmount, config.locale)
  const idle = state.work === 'idle'
  const params = { amount, symbol: record.symbol, chain }
  // No wallet connected and nothing asked of one yet: the transfer as a request another wallet or an
  // exchange can make (its code comes then), once the buyer chose it (the payout is then marked
  // offered). With a wallet connected its Send is the way; after an offer, only on the buyer's word
  // that nothing went another way: an exchange's transfer not yet mined would fund the payout twice.
  const payable = state.sender ? undefined : fundingRequest(record, payoutSourceOf(config))
  const offered = record.offeredAt !== undefined
  const request = offered ? payable : undefined
  const part = useLazyPart(payByAddressPart, !!request)
  // The phone ended the session: Connect again instead of a send that cannot reach it.
  const ended = state.problem?.kind === 'wallet' && state.problem.problem === 'ended'
  return (
    <Screen title={t('payout.fundHeading')}>
      <p>{t('payout.fundIntro', params)}</p>
      {request && <p>{t('payout.byAddressIntro')}</p>}
      {request && part && part !== 'failed' ? (
        <part.PayByAddress
          {...request}
          symbol={record.symbol}
          chainName={chain}
          amount={record.depositAmount}
          terms={t(record.rail ? 'payout.byAddressReturn' : 'payout.byAddressLess', params)}
        />
      ) : (
        <DepositDetails record={record} amount={amount} chain={chain} />
      )}
      <p class="reference-warning">
        {t('payout.onlyChain', params)} {t('payout.singleUse')}
      </p>
      {!state.sender && <WalletChoices connection={state.connection} disabled={!idle} dispatch={dispatch} />}
      {payable && !offered && (
        <button type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'OFFER', now: Date.now() })}>
          {t('payout.byAddress')}
        </button>
      )}
      {state.sender && <p>{t('payout.connected', { address: state.sender })}</p>}
      <BuyersWord state={state} prompted={prompted} offered={offered} word={nothingPending} setWord={setNothingPending} />
      {!idle && <p role="status">{t(`payout.work.${state.work}` as MessageKey, params)}</p>}
      {state.problem && <WalletProblem problem={state.problem} text={sendProblemText(state.problem, fundingContext(record, chain, config.locale))} />}
      <div class="actions">
        <StartOver offered={offered} disabled={!idle || (prompted && state.verify !== 'clear')} dispatch={dispatch} />
        {prompted && !state.verify && idle && (
          <button type="button" class="secondary" onClick={() => dispatch({ type: 'RECHECK' })}>
            {t('payout.checkAgain')}
          </button>
        )}
        <SendOrConnect
          state={state}
          dispatch={dispatch}
          prompted={prompted}
          ended={ended}
          label={t('payout.send', params)}
          word={offered ? nothingPending : undefined}
        />
        {state.sender && prompted && !ended && state.verify === 'clear' && (
          <button
            type="button"
            class="primary"
            disabled={!idle || !nothingPending || state.problem?.kind === 'expired'}
            onClick={() => dispatch({ type: 'CONFIRM', now: Date.now(), confirmed: true })}
          >
            {t('payout.sendAgain', params)}
          </button>
        )}
      </div>
    </Screen>
  )
}

/**
 * Start over: at once, unless the payout was offered by address; then first the warning that a
 * transfer already sent would no longer be followed here, and "Start over anyway".
 */
function StartOver({ offered, disabled, dispatch }: { offered: boolean; disabled: boolean; dispatch: (e: FundingEvent) => void }) {
  const [asking, setAsking] = useState(false)
  if (asking && !disabled)
    return (
      <div class="field">
        <Notice tone="warning">{t('payout.restartOffered')}</Notice>
        <button type="button" class="secondary" onClick={() => dispatch({ type: 'RESTART', confirmed: true })}>
          {t('payout.restartAnyway')}
        </button>
      </div>
    )
  return (
    <button type="button" class="secondary" disabled={disabled} onClick={() => (offered ? setAsking(true) : dispatch({ type: 'RESTART' }))}>
      {t('payout.startOver')}
    </button>
  )
}

/**
 * What the buyer must say before a send that could pay the payout twice: after a prompt never
 * answered (the re-check first), or after the payout was offered by address (nothing sent another way).
 */
function BuyersWord(props: { state: FundingState; prompted: boolean; offered: boolean; word: boolean; setWord: (word: boolean) => void }) {
  const { state, prompted, word, setWord } = props
  const idle = state.work === 'idle'
  const box = (label: string) => (
    <label class="field">
      <input type="checkbox" checked={word} onChange={(e) => setWord((e.target as HTMLInputElement).checked)} />
      {label}
    </label>
  )
  if (!prompted)
    return state.sender && props.offered ? (
      <>
        <Notice tone="warning">{t('payout.offeredBefore')}</Notice>
        {box(t('payout.confirmNotSent'))}
      </>
    ) : null
  return (
    <>
      <Notice tone="warning">{t('payout.prompted')}</Notice>
      {state.verify === 'running' && <p role="status">{t('payout.work.verifying')}</p>}
      {state.verify === 'clear' && idle && (
        <>
          <p>{t('payout.nothingArrived')}</p>
          {state.sender && box(t('payout.confirmResend'))}
        </>
      )}
    </>
  )
}

/**
 * The wallet connected: its Disconnect where it is a WalletConnect session, and the send; never once
 * the wallet was asked for the transfer. Once the phone ended the session: Connect again. `word`:
 * the payout was offered by address, so the send waits for the buyer's word that nothing went another way.
 */
function SendOrConnect(props: { state: FundingState; dispatch: (e: FundingEvent) => void; prompted: boolean; ended: boolean; label: string; word?: boolean }) {
  const { state, dispatch } = props
  const idle = state.work === 'idle'
  if (props.ended) return idle ? <SessionButton again dispatch={dispatch} /> : null
  if (!state.sender || props.prompted) return null
  return (
    <>
      {isWalletConnect(state.wallet) && <SessionButton disabled={!idle} dispatch={dispatch} />}
      <button
        type="button"
        class="primary"
        disabled={!idle || state.problem?.kind === 'expired' || props.word === false}
        onClick={() => dispatch({ type: 'CONFIRM', now: Date.now(), ...(props.word ? { confirmed: true } : {}) })}
      >
        {props.label}
      </button>
    </>
  )
}

/** Where to send what: the exact amount, the network and the single-use deposit address. */
function DepositDetails({ record, amount, chain }: { record: FundingState['record']; amount: string; chain: string }) {
  return (
    <dl class="bank-details">
      <CopyField label={t('payout.exactAmount')} value={record.depositAmount} display={`${amount} ${record.symbol}`} />
      <div class="copy-field">
        <dt>{t('payout.network')}</dt>
        <dd>
          <span class="value">{chain}</span>
        </dd>
      </div>
      <CopyField label={t('payout.depositAddress')} value={record.depositAddress} />
    </dl>
  )
}
