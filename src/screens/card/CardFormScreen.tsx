import { amountErrorText } from '../../errors/amountWords'
import { problemText } from '../../errors/words'
import { AmountField } from '../../components/AmountField'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { WidgetConfig } from '../../config/config'
import type { CardEvent, CardState } from '../../flows/card'
import { t } from '../../i18n/i18n'
import { formatAmount } from '../../lib/decimal'

type State = Extract<CardState, { tag: 'form' | 'quoting' }>

export function CardFormScreen({ state, dispatch, config }: { state: State; dispatch: (e: CardEvent) => void; config: WidgetConfig }) {
  const error = state.tag === 'form' ? state.error : undefined
  const busy = state.tag === 'quoting'
  // Indicative only, and only while the field still says what it was asked for.
  const rate = state.tag === 'form' && state.rate?.amount === state.form.amount && state.rate.currency === state.form.currency ? state.rate : undefined
  const { currency } = state.form
  const fmt = (v: string) => formatAmount(v, config.locale)
  const amountError = amountErrorText(error, { unit: currency, decimals: 2, locale: config.locale, decimalsKey: 'card.decimals' })
  return (
    <Screen title={t('card.formHeading')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT' })
        }}
      >
        {config.fiatCurrencies.length > 1 && (
          <div class="field">
            <label for="currency">{t('card.currency')}</label>
            <select
              id="currency"
              value={currency}
              disabled={busy}
              onChange={(e) => dispatch({ type: 'EDIT', currency: (e.target as HTMLSelectElement).value })}
            >
              {config.fiatCurrencies.map((c) => (
                <option value={c}>{c}</option>
              ))}
            </select>
          </div>
        )}
        <AmountField
          id="total"
          label={t('card.total')}
          unit={currency}
          value={state.form.amount}
          error={amountError}
          hints={['total-hint', state.limits ? 'total-window' : '', 'total-tier', rate ? 'total-rate' : ''].filter(Boolean)}
          readOnly={busy || config.lockAmount}
          onInput={(amount) => dispatch({ type: 'EDIT', amount })}
        >
          <p id="total-hint" class="muted">
            {t('card.totalHint')}
          </p>
          {/* The rate and the window keep their line while they are not known (a no-break space), so
              the button below does not move as they come and go: a click on it is never lost. */}
          <p id="total-rate" class="muted">
            {rate ? t('card.indicativeRate', { amount: formatAmount(rate.rate.cryptoAmount, config.locale), asset: rate.rate.cryptoCurrency }) : '\u00a0'}
          </p>
          <p id="total-window" class="muted">
            {state.limits ? t('card.window', { min: fmt(state.limits.min), max: fmt(state.limits.max), currency }) : '\u00a0'}
          </p>
          {/* The window is the rail's; a buyer's own ceiling comes with their verification tier (the contract). */}
          <p id="total-tier" class="muted">
            {t('card.tierNote')}
          </p>
        </AmountField>
        {error?.kind === 'api' && (
          <Notice tone="error" code={error.problem.code}>
            {problemText(error.problem)}
          </Notice>
        )}
        {busy && <p role="status">{t('quote.loading')}</p>}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('card.submit')}
          </button>
        </div>
      </form>
    </Screen>
  )
}
