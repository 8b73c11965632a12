import { useEffect, useRef } from 'preact/hooks'
import { problemText } from '../../errors/words'
import { AmountField } from '../../components/AmountField'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { type WidgetConfig, chainOf } from '../../config/config'
import type { DepositEvent, DepositState } from '../../flows/deposit'
import { t } from '../../i18n/i18n'
import { amountErrorText } from '../../errors/amountWords'
import { shortHash } from '../../components/TxLink'
import { rejectionText } from '../../errors/words'
import { isWalletConnect } from '../../kernel/types'

type State = Extract<DepositState, { tag: 'form' | 'quoting' }>

export function AmountScreen({ state, dispatch, config }: { state: State; dispatch: (e: DepositEvent) => void; config: WidgetConfig }) {
  const source = config.sources[state.form.source] ?? config.sources[0]
  const error = state.tag === 'form' ? state.error : undefined
  const busy = state.tag === 'quoting'
  const destination = config.destination ?? config.defaultDestination
  const destChain = chainOf(config, destination.chainId).name
  const submit = useRef<HTMLButtonElement>(null)
  // A refused price leaves the buyer here: the way on (a new price) takes the focus.
  useEffect(() => {
    if (error?.kind === 'rejected') submit.current?.focus()
  }, [error])
  const amountError = amountErrorText(error, { unit: source.symbol, decimals: source.decimals, locale: config.locale })
  return (
    <Screen title={t('form.heading')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT' })
        }}
      >
        <p class="muted">
          {t('form.account')}: <code title={state.session.account}>{shortHash(state.session.account)}</code> ({state.session.wallet.name})
        </p>
        <SourceField state={state} dispatch={dispatch} config={config} />
        <AmountField
          id="amount"
          label={t('form.amount')}
          unit={source.symbol}
          value={state.form.amount}
          error={amountError}
          readOnly={busy || config.lockAmount}
          onInput={(amount) => dispatch({ type: 'EDIT', amount })}
        />
        <p>
          {t('form.to')}:{' '}
          {config.destination?.address
            ? t('form.toFixed', { token: destination.symbol, chain: destChain, address: shortHash(config.destination.address) })
            : t('form.toOwn', { token: destination.symbol, chain: destChain })}
        </p>
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
        {busy && <p role="status">{t('quote.loading')}</p>}
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => dispatch({ type: 'WALLET', event: { type: 'DISCONNECT' } })}>
            {/* A WalletConnect session ends on the phone too: said as such. */}
            {t(isWalletConnect(state.session.wallet) ? 'form.disconnect' : 'form.changeWallet')}
          </button>
          <button type="submit" class="primary" disabled={busy} ref={submit}>
            {error?.kind === 'api' ? t('quote.tryAgain') : error?.kind === 'rejected' ? t('quote.newPrice') : t('form.submit')}
          </button>
        </div>
      </form>
    </Screen>
  )
}

/** Where the buyer pays from: a choice where the partner offers several tokens, else said. */
function SourceField({ state, dispatch, config }: { state: State; dispatch: (e: DepositEvent) => void; config: WidgetConfig }) {
  const source = config.sources[state.form.source] ?? config.sources[0]
  const busy = state.tag === 'quoting'
  return config.sources.length > 1 ? (
    <div class="field">
      <label for="source">{t('form.from')}</label>
      <select
        id="source"
        value={String(state.form.source)}
        disabled={busy}
        onChange={(e) => dispatch({ type: 'EDIT', source: Number((e.target as HTMLSelectElement).value) })}
      >
        {config.sources.map((s, i) => (
          <option value={String(i)}>
            {s.symbol} on {chainOf(config, s.chainId).name}
          </option>
        ))}
      </select>
    </div>
  ) : (
    <p>
      {t('form.from')}:{' '}
      <strong>
        {source.symbol} on {chainOf(config, source.chainId).name}
      </strong>
    </p>
  )
}
