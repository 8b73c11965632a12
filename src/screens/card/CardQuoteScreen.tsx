import { problemText } from '../../errors/words'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import { Countdown } from '../../components/Countdown'
import type { WidgetConfig } from '../../config/config'
import type { CardEvent, CardState } from '../../flows/card'
import { addEnglish, t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'
import { Environment } from './Environment'
import { enCardLater } from '../../i18n/en-cardLater'

// The strings of the card screens after the form come with them (and with the effects that lead there).
addEnglish(enCardLater)

type State = Extract<CardState, { tag: 'quote' }>

export function CardQuoteScreen({ state, dispatch, config }: { state: State; dispatch: (e: CardEvent) => void; config: WidgetConfig }) {
  const { quote } = state
  const idle = state.work === 'idle'
  const fiat = state.form.currency
  return (
    <Screen title={t('card.quoteHeading')}>
      <Environment environment={quote.environment} />
      <QuoteTable quote={quote} fiat={fiat} refreshed={state.refreshed} locale={config.locale} />
      <p class="muted">{t('card.feesInside')}</p>
      {quote.expiresAt && idle && <Countdown expiresAt={quote.expiresAt} />}
      {state.refreshed && <Notice tone="info">{t('quote.refreshed')}</Notice>}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'CONFIRM', now: Date.now() })
        }}
      >
        <div class="field">
          <label for="wallet-address">{t('card.wallet')}</label>
          <input
            id="wallet-address"
            class="text"
            autoComplete="off"
            spellcheck={false}
            value={state.form.address}
            readOnly={!idle}
            aria-invalid={state.addressError ? 'true' : undefined}
            aria-describedby={state.addressError ? 'wallet-hint wallet-error' : 'wallet-hint'}
            onInput={(e) => dispatch({ type: 'EDIT', address: (e.target as HTMLInputElement).value })}
          />
          <p id="wallet-hint" class="muted">
            {t('card.walletHint')}
          </p>
          {state.addressError && (
            <p id="wallet-error" class="field-error">
              {t('card.walletInvalid')}
            </p>
          )}
        </div>
        {state.problem && (
          <Notice tone="error" code={state.problem.code}>
            {problemText(state.problem)}
          </Notice>
        )}
        {!idle && <p role="status">{t('app.loading')}</p>}
        <div class="actions">
          <button data-back type="button" class="secondary" disabled={!idle} onClick={() => dispatch({ type: 'BACK' })}>
            {t('app.back')}
          </button>
          <button type="submit" class="primary" disabled={!idle}>
            {t('card.continue')}
          </button>
        </div>
      </form>
    </Screen>
  )
}

/** What the card payment costs and brings, row by row. */
function QuoteTable({ quote, fiat, refreshed, locale }: { quote: State['quote']; fiat: string; refreshed: State['refreshed']; locale: string }) {
  const f = (v: string) => formatAmount(v, locale)
  return (
    <table class={`quote ${refreshed ? 'fresh' : ''}`}>
      <tbody>
        <tr class="total">
          <th scope="row">{t('card.youPay')}</th>
          <td>
            {f(quote.total)} {fiat}
          </td>
        </tr>
        <tr>
          <th scope="row">{t('card.providerFee')}</th>
          <td>
            {f(quote.providerFee)} {fiat}
          </td>
        </tr>
        <tr>
          <th scope="row">{t('card.ourFee')}</th>
          <td>
            {f(quote.ourFee)} {fiat}
          </td>
        </tr>
        <tr>
          <th scope="row">{t('card.converted')}</th>
          <td>
            {f(quote.fiatAmount)} {fiat}
          </td>
        </tr>
        <tr>
          <th scope="row">{t('card.rate')}</th>
          <td>{t('card.rateValue', { crypto: quote.cryptoCurrency, rate: f(quote.rate), fiat })}</td>
        </tr>
        <tr class="total">
          <th scope="row">{t('card.youGet')}</th>
          <td>
            {f(quote.cryptoAmount)} {quote.cryptoCurrency}
          </td>
        </tr>
      </tbody>
    </table>
  )
}
