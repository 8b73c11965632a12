import { AmountField } from '../../components/AmountField'
import { Notice, ProblemNotice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { WidgetConfig } from '../../config/config'
import { amountOrLimitText } from '../../errors/limitWords'
import { problemText } from '../../errors/words'
import type { BankDepositEvent, FormState } from '../../flows/bankDeposit'
import { t } from '../../i18n/i18n'
import { limitLine } from '../../i18n/limits'
import { limitsFor } from '../../lib/limits'
import { bt, countryName } from './text'

/**
 * Where the buyer pays from and how much. The one-off deposit where the service offers it in that
 * country; the virtual account otherwise, where the partner offers it. The rail's limits and settlement time under the amount.
 */
export function AmountScreen({
  state,
  dispatch,
  config,
  onVirtualAccount,
}: {
  state: FormState
  dispatch: (e: BankDepositEvent) => void
  config: WidgetConfig
  onVirtualAccount?: () => void
}) {
  const { locale } = config
  const { form, reference, error } = state
  const busy = state.work !== 'idle'
  // The form is usable before the ways to pay arrive: the country already chosen (the buyer's
  // last, or the locale's region) shows alone, and an amount asked for meanwhile is checked and
  // sent once they come (the machine's `submitted`).
  const codes = reference ? Object.keys(reference.methods.countries) : form.country ? [form.country] : []
  const countries = codes.map((code): [string, string] => [code, countryName(code, locale)]).sort((a, b) => a[1].localeCompare(b[1], locale))
  const methods = reference && form.country ? reference.methods.countries[form.country] : undefined
  const offered = methods?.bank_deposit === true
  // The virtual account, where the service has one there and the partner offers that flow.
  const virtual = methods?.virtual_account === true && config.flows.includes('onboarding')
  return (
    <Screen title={bt('bankDeposit.amountHeading')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT' })
        }}
      >
        <CountryField state={state} dispatch={dispatch} countries={countries} />
        {methods && !offered ? (
          <Notice tone="info">
            {virtual ? (
              <>
                {bt('bankDeposit.notOffered', { country: countryName(form.country, locale) })} {bt('bankDeposit.virtualAccount')}
              </>
            ) : (
              bt('bankDeposit.nothingOffered', { country: countryName(form.country, locale) })
            )}
          </Notice>
        ) : (
          <AmountFields state={state} dispatch={dispatch} config={config} />
        )}
        {state.loadProblem ? (
          <ProblemNotice problem={state.loadProblem} onRetry={() => dispatch({ type: 'RELOAD' })} />
        ) : (
          !reference && <p role="status">{bt('bankDeposit.loadingOptions')}</p>
        )}
        {state.problem && (
          <Notice tone="error" code={state.problem.code}>
            {problemText(state.problem)}
          </Notice>
        )}
        {busy && <p role="status">{bt('bankDeposit.creating')}</p>}
        <div class="actions">
          {methods && !offered ? (
            virtual &&
            onVirtualAccount && (
              <button type="button" class="primary" onClick={onVirtualAccount}>
                {bt('bankDeposit.openVirtualAccount')}
              </button>
            )
          ) : (
            <button type="submit" class="primary" disabled={busy}>
              {bt('bankDeposit.submit')}
            </button>
          )}
        </div>
      </form>
    </Screen>
  )
}

/** The country the buyer pays from; its error under it. */
function CountryField({ state, dispatch, countries }: { state: FormState; dispatch: (e: BankDepositEvent) => void; countries: Array<[string, string]> }) {
  const { form, error } = state
  const busy = state.work !== 'idle'
  return (
    <div class="field">
      <label for="deposit-country">{bt('bankDeposit.country')}</label>
      <select
        id="deposit-country"
        value={form.country}
        disabled={busy}
        aria-invalid={error?.kind === 'country' ? 'true' : undefined}
        aria-describedby={error?.kind === 'country' ? 'deposit-country-error' : undefined}
        onChange={(e) => dispatch({ type: 'EDIT', country: (e.target as HTMLSelectElement).value })}
      >
        <option value="">{bt('bankDeposit.countryChoose')}</option>
        {countries.map(([code, name]) => (
          <option value={code}>{name}</option>
        ))}
      </select>
      {error?.kind === 'country' && (
        <p id="deposit-country-error" class="field-error">
          {bt('bankDeposit.countryRequired')}
        </p>
      )}
    </div>
  )
}

/** The currency (where the partner offers several) and the amount, with the rail's limits under it. */
function AmountFields({ state, dispatch, config }: { state: FormState; dispatch: (e: BankDepositEvent) => void; config: WidgetConfig }) {
  const { locale } = config
  const { form, reference, error } = state
  const busy = state.work !== 'idle'
  const lines = reference ? limitsFor(reference.limits, { currency: form.currency, direction: 'pay_in' }).map((e) => limitLine(e, locale)) : []
  const amountError = amountOrLimitText(error, { unit: form.currency, decimals: 2, locale, decimalsKey: 'bankDeposit.decimals' })
  const hints = ['deposit-limits', state.pinned ? 'deposit-fixed' : ''].filter(Boolean)
  return (
    <>
      {config.fiatCurrencies.length > 1 && (
        <div class="field">
          <label for="deposit-currency">{bt('bankDeposit.currency')}</label>
          <select
            id="deposit-currency"
            value={form.currency}
            disabled={busy || state.pinned}
            onChange={(e) => dispatch({ type: 'EDIT', currency: (e.target as HTMLSelectElement).value })}
          >
            {config.fiatCurrencies.map((c) => (
              <option value={c}>{c}</option>
            ))}
          </select>
        </div>
      )}
      <AmountField
        id="deposit-amount"
        label={bt('bankDeposit.amountLabel')}
        unit={form.currency}
        value={form.amount}
        error={amountError}
        hints={hints}
        readOnly={busy || config.lockAmount || state.pinned}
        onInput={(amount) => dispatch({ type: 'EDIT', amount })}
      >
        <div id="deposit-limits" class="muted limits">
          {lines.length
            ? lines.map((line) => <p>{line}</p>)
            : form.country && reference && reference.limits.length > 0 && <p>{bt('bankDeposit.noRail', { currency: form.currency })}</p>}
        </div>
        {state.pinned && (
          <p id="deposit-fixed" class="muted">
            {bt('bankDeposit.amountFixed')}
          </p>
        )}
      </AmountField>
    </>
  )
}
