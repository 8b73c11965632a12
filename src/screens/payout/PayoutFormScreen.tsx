import { payoutProblem } from '../../errors/payoutWords'
import { amountOrLimitText } from '../../errors/limitWords'
import { problemText } from '../../errors/words'
import type { LimitEntry } from '../../lib/limits'
import { AmountField } from '../../components/AmountField'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { FormError, FormState, PayoutEvent, PayoutForm, QuotingState, Source } from '../../flows/payout'
import { t } from '../../i18n/i18n'
import { NotYou } from './NotYou'
import { countryOptions } from '../../lib/country'
import { limitLine } from '../../i18n/limits'
import { type Landing, landingOf } from '../../lib/landing'
import { limitsFor, railName } from '../../lib/limits'

type State = FormState | QuotingState
/** A form field's change, as the form's EDIT names it. */
type Set = (field: keyof PayoutForm) => (e: Event) => void

export function PayoutFormScreen({
  state,
  dispatch,
  source,
  currencies,
  locale,
  notYou = false,
  card = false,
}: {
  state: State
  dispatch: (e: PayoutEvent) => void
  source: Source
  currencies: string[]
  locale: string
  notYou?: boolean
  card?: boolean
}) {
  const { form } = state
  const busy = state.tag === 'quoting'
  const error = state.tag === 'form' ? state.error : undefined
  const unit = form.kind === 'crypto' ? source.symbol : form.currency
  const rails = state.limits && !card ? limitsFor(state.limits, { currency: form.currency, direction: 'payout' }) : []
  const lands: Landing = landingOf(form.rail ? [form.rail] : rails.map((entry) => entry.rail)) // the forced rail's kind, or what every rail shares
  const amountError = amountOrLimitText(error, { unit, decimals: form.kind === 'crypto' ? source.decimals : 2, locale })
  // The payout's own problems are worded in errors/payoutWords.ts; the service's came worded.
  const problem = error?.kind === 'ask' ? payoutProblem(error, card) : error?.kind === 'api' ? error.problem : undefined
  const set: Set = (field) => (e) => dispatch({ type: 'EDIT', [field]: (e.target as HTMLInputElement).value })
  return (
    <Screen title={t(card ? 'cardPayout.formHeading' : lands === 'bank' ? 'payout.formHeading' : `payout.formHeading.${lands}`)}>
      {notYou && state.buyer && (
        // The account was reused from this device: say whose it is, and let someone else start from nothing.
        <NotYou wallet={state.buyer.wallet} disabled={busy} dispatch={dispatch} />
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT' })
        }}
      >
        <AmountFields form={form} source={source} currencies={currencies} busy={busy} card={card} lands={lands} set={set} />
        <AmountField
          id="payout-amount"
          label={t(
            card && form.kind === 'fiat'
              ? 'cardPayout.amount.fiat'
              : form.kind === 'crypto' || lands === 'bank'
                ? `payout.amount.${form.kind}`
                : `payout.${lands}.arrives`,
          )}
          unit={unit}
          value={form.amount}
          error={amountError}
          readOnly={busy}
          onInput={(amount) => dispatch({ type: 'EDIT', amount })}
        />
        {!card && <WhereFields form={form} rails={rails} error={error} busy={busy} locale={locale} lands={lands} set={set} />}
        {problem && (
          <Notice tone="error" code={problem.code}>
            {problemText(problem)}
          </Notice>
        )}
        {busy && <p role="status">{t('quote.loading')}</p>}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('payout.getQuote')}
          </button>
        </div>
        {/* The rails' lines come with the limits, below the button. */}
        {rails.length > 0 && (
          <ul id="payout-rails" class="plain muted" aria-label={t('payout.limitsHeading', { currency: form.currency })}>
            {rails.map((entry) => (
              <li>{limitLine(entry, locale)}</li>
            ))}
          </ul>
        )}
      </form>
    </Screen>
  )
}

/** Which amount the buyer types (the stablecoin sent, or the fiat that arrives), and its currency. */
function AmountFields({
  form,
  source,
  currencies,
  busy,
  card,
  lands,
  set,
}: {
  form: PayoutForm
  source: Source
  currencies: string[]
  busy: boolean
  card: boolean
  lands: Landing
  set: Set
}) {
  return (
    <>
      <fieldset class="field" disabled={busy}>
        <legend>{t('payout.amountKind')}</legend>
        {(['fiat', 'crypto'] as const).map((kind) => (
          <label class="radio">
            <input type="radio" name="amount-kind" value={kind} checked={form.kind === kind} onChange={set('kind')} />
            {t(
              card && kind === 'fiat'
                ? 'cardPayout.amountKind.fiat'
                : kind === 'crypto' || lands === 'bank'
                  ? `payout.amountKind.${kind}`
                  : `payout.amountKind.fiat.${lands}`,
              {
                symbol: source.symbol,
              },
            )}
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="payout-currency">{t('payout.currency')}</label>
        <select id="payout-currency" value={form.currency} disabled={busy} onChange={set('currency')}>
          {currencies.map((c) => (
            <option value={c}>{c}</option>
          ))}
        </select>
      </div>
    </>
  )
}

/** A bank payout's country and rail (a card payout has neither). */
function WhereFields({
  form,
  rails,
  error,
  busy,
  locale,
  lands,
  set,
}: {
  form: PayoutForm
  rails: LimitEntry[]
  error?: FormError
  busy: boolean
  locale: string
  lands: Landing
  set: Set
}) {
  return (
    <>
      <div class="field">
        <label for="payout-country">{t(lands === 'bank' ? 'payout.country' : `payout.country.${lands}`)}</label>
        <select
          id="payout-country"
          value={form.country}
          disabled={busy}
          aria-invalid={error?.kind === 'country' ? 'true' : undefined}
          aria-describedby={error?.kind === 'country' ? 'payout-country-error' : undefined}
          onChange={set('country')}
        >
          <option value="">{t('payout.choose')}</option>
          {countryOptions(locale).map(([code, name]) => (
            <option value={code}>{name}</option>
          ))}
        </select>
        {error?.kind === 'country' && (
          <p id="payout-country-error" class="field-error">
            {t(lands === 'bank' ? 'payout.countryRequired' : `payout.countryRequired.${lands}`)}
          </p>
        )}
      </div>
      {/* Always there, so the button below never moves when the rails arrive (a click on it is never lost): until then it offers the cheapest rail alone. */}
      <div class="field">
        <label for="payout-rail">{t('payout.rail')}</label>
        <select id="payout-rail" value={form.rail} disabled={busy} aria-describedby={rails.length > 0 ? 'payout-rails' : undefined} onChange={set('rail')}>
          <option value="">{t('payout.rail.cheapest')}</option>
          {rails.map((entry) => (
            <option value={entry.rail}>{railName(entry.rail)}</option>
          ))}
        </select>
      </div>
    </>
  )
}
