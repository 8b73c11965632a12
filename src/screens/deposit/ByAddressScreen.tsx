// Paying by address (flows/deposit/byAddress.ts): where the deposit goes and how much, then the
// address to pay from another wallet or an exchange, watched until the transfer arrives. Lazy:
// fetched with its transition when the buyer picks it (flows/deposit/byAddressPart.ts).
import { useEffect, useState } from 'preact/hooks'
import { AmountField } from '../../components/AmountField'
import { Notice } from '../../components/Notice'
import { PayByAddress } from '../../components/PayByAddress'
import { Screen } from '../../components/Screen'
import { shortHash } from '../../components/TxLink'
import { type WidgetConfig, chainOf } from '../../config/config'
import type { DepositEvent, DepositState } from '../../flows/deposit'
import { amountErrorText } from '../../errors/amountWords'
import { byAddressCreditKey, refusalKey } from '../../errors/byAddressWords'
import { problemText, rejectionText } from '../../errors/words'
import { enByAddress } from '../../i18n/byAddress/en'
import { addEnglish, t } from '../../i18n/i18n'
import { formatAmount, fromBaseUnits } from '../../lib/decimal'

addEnglish(enByAddress)

type Stage = Extract<DepositState, { tag: 'byAddress' }>
type Watching = Extract<DepositState, { tag: 'tracking' }>
type Props<S> = { state: S; dispatch: (e: DepositEvent) => void; config: WidgetConfig }

export function ByAddressScreen(props: Props<Stage | Watching>) {
  const { state } = props
  return state.tag === 'byAddress' ? <Form {...props} state={state} /> : <Watch {...props} state={state} />
}

function Form({ state, dispatch, config }: Props<Stage>) {
  const send = (event: Extract<DepositEvent, { type: 'BY_ADDRESS' }>['event']) => dispatch({ type: 'BY_ADDRESS', event })
  const source = config.sources[state.form.source] ?? config.sources[0]
  const busy = state.stage === 'quoting'
  const error = state.error
  return (
    <Screen title={t('byAddress.heading')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          send({ type: 'SUBMIT' })
        }}
      >
        <p>{t('byAddress.intro')}</p>
        <p>
          {t('form.from')}:{' '}
          <strong>
            {source.symbol} on {chainOf(config, source.chainId).name}
          </strong>
        </p>
        <AmountField
          id="amount"
          label={t('form.amount')}
          unit={source.symbol}
          value={state.form.amount}
          error={amountErrorText(error, { unit: source.symbol, decimals: source.decimals, locale: config.locale })}
          readOnly={busy || config.lockAmount}
          onInput={(amount) => send({ type: 'EDIT', amount })}
        />
        <Receiver state={state} send={send} config={config} />
        <p class="muted">{t('byAddress.refund')}</p>
        <Credit at="form" config={config} />
        {error?.kind === 'api' && (
          <Notice tone="error" code={error.problem.code}>
            {problemText(error.problem)}
          </Notice>
        )}
        {error?.kind === 'rejected' && (
          <Notice tone="error" code="quote_rejected">
            {rejectionText(error.rejection)}
          </Notice>
        )}
        {state.refusal && (
          <Notice tone="error" code={`by_address_${state.refusal}`}>
            {t(refusalKey(state.refusal))}
          </Notice>
        )}
        {busy && <p role="status">{t('byAddress.loading')}</p>}
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => send({ type: 'BACK' })}>
            {state.refusal ? t('app.back') : t('byAddress.connectInstead')}
          </button>
          {!state.refusal && (
            <button type="submit" class="primary" disabled={busy}>
              {t('byAddress.submit')}
            </button>
          )}
        </div>
      </form>
    </Screen>
  )
}

/**
 * Where the deposit is delivered: the link's fixed address, or the one the buyer types; with the
 * partner's kit and none fixed, to the partner (its depositDestination), so none is asked.
 */
function Receiver({ state, send, config }: { state: Stage; send: (e: Extract<DepositEvent, { type: 'BY_ADDRESS' }>['event']) => void; config: WidgetConfig }) {
  const destination = config.destination ?? config.defaultDestination
  const destChain = chainOf(config, destination.chainId).name
  const error = state.error
  const busy = state.stage === 'quoting'
  if (state.kit) return <p>{t('byAddress.receiverSite')}</p>
  return state.locked ? (
    <p>{t('byAddress.receiverFixed', { token: destination.symbol, chain: destChain, address: shortHash(state.receiver) })}</p>
  ) : (
    <div class="field">
      <label for="receiver">{t('byAddress.receiver', { token: destination.symbol, chain: destChain })}</label>
      <input
        id="receiver"
        type="text"
        autocomplete="off"
        spellcheck={false}
        value={state.receiver}
        readOnly={busy}
        aria-invalid={error?.kind === 'receiver'}
        aria-describedby={error?.kind === 'receiver' ? 'receiver-error receiver-hint' : 'receiver-hint'}
        onInput={(e) => send({ type: 'EDIT', receiver: (e.target as HTMLInputElement).value })}
      />
      <p id="receiver-hint" class="muted">
        {t('byAddress.receiverHint')}
      </p>
      {error?.kind === 'receiver' && (
        <p id="receiver-error" class="field-error">
          {t('byAddress.receiverInvalid')}
        </p>
      )}
    </div>
  )
}

/** Whose deposit it will be, where the partner's backend says (errors/byAddressWords.ts chooses). */
function Credit({ at, config }: { at: 'form' | 'watch'; config: WidgetConfig }) {
  const key = byAddressCreditKey(config, at)
  return key ? <Notice tone="info">{t(key)}</Notice> : null
}

/** Now, once a second: the quote's expiry is said as it is. */
function useNow() {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1_000)
    return () => clearInterval(id)
  }, [])
  return now
}

function Watch({ state, dispatch, config }: Props<Watching>) {
  const watch = state.tracking.watch
  const now = useNow()
  if (!watch) return null
  const source = config.sources.find((s) => s.chainId === state.tracking.chainId && s.token.toLowerCase() === watch.token.toLowerCase())
  const decimals = source?.decimals ?? 0
  const symbol = state.tracking.summary.sourceSymbol
  const chain = chainOf(config, state.tracking.chainId).name
  const amount = fromBaseUnits(BigInt(watch.units), decimals)
  const end = Date.parse(watch.expiresAt)
  const left = Math.max(0, Math.ceil((end - now) / 1_000))
  const at = new Date(end).toLocaleTimeString(config.locale, { hour: '2-digit', minute: '2-digit' })
  const two = (n: number) => String(n).padStart(2, '0')
  const time = `${Math.floor(left / 60)}:${two(left % 60)}`
  return (
    <Screen title={t('byAddress.sendHeading', { amount: formatAmount(amount, config.locale), token: symbol })}>
      {left > 0 ? <p class="countdown">{t('byAddress.expiresIn', { time, at })}</p> : <Notice tone="warning">{t('byAddress.expired', { at })}</Notice>}
      <Credit at="watch" config={config} />
      <PayByAddress
        address={watch.address}
        token={watch.token}
        symbol={symbol}
        chainId={state.tracking.chainId}
        chainName={chain}
        units={watch.units}
        amount={amount}
      />
      {(state.strays ?? []).map((s) =>
        s.token.toLowerCase() === watch.token.toLowerCase() ? (
          <Notice tone="warning">{t('byAddress.stray', { amount: fromBaseUnits(BigInt(s.units), decimals), token: symbol, hash: shortHash(s.txHash) })}</Notice>
        ) : (
          <Notice tone="warning">{t('byAddress.strayToken', { token: shortHash(s.token), hash: shortHash(s.txHash) })}</Notice>
        ),
      )}
      {state.waiting ? <p role="status">{t('app.waiting')}</p> : <p role="status">{t('byAddress.watching', { chain })}</p>}
      {left === 0 && (
        <div class="actions">
          <button type="button" class="secondary" onClick={() => dispatch({ type: 'BY_ADDRESS', event: { type: 'ABANDON' } })}>
            {t('byAddress.newQuote')}
          </button>
        </div>
      )}
    </Screen>
  )
}
