import { useMemo } from 'preact/hooks'
import { partnerProblemText } from '../../errors/words'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import type { Field, IdentityEvent, IdentityState } from '../../identity/machine'
import { enOnboardingLater } from '../../i18n/en-onboardingLater'
import { type MessageKey, addEnglish, t } from '../../i18n/i18n'
import { countryOptions } from '../../lib/country'

// Its English strings come with it.
addEnglish(enOnboardingLater)

type State = Extract<IdentityState, { tag: 'details' }>

/** `opensAccount`: the virtual-account flow's words ("Get the bank details"); the other bank flows go on ("Continue"). */
export function DetailsScreen({
  state,
  dispatch,
  locale,
  opensAccount = true,
}: {
  state: State
  dispatch: (e: IdentityEvent) => void
  locale: string
  opensAccount?: boolean
}) {
  const countries = useMemo(() => countryOptions(locale), [locale])
  const busy = state.work !== 'idle'
  const form: Form = { state, busy, edit: (field) => (e) => dispatch({ type: 'EDIT', field, value: (e.target as HTMLInputElement).value }) }
  return (
    <Screen title={t('onboarding.detailsHeading')}>
      <p>{t('onboarding.detailsIntro')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          dispatch({ type: 'SUBMIT' })
        }}
      >
        {textField(form, 'name', 'onboarding.fullName', { autoComplete: 'name' })}
        {textField(form, 'email', 'onboarding.email', { type: 'email', autoComplete: 'email' })}
        {textField(form, 'phone', 'onboarding.phone', { type: 'tel', autoComplete: 'tel' }, 'onboarding.phoneHint')}
        {countrySelect(form, countries, 'nationality', 'onboarding.nationality')}
        {countrySelect(form, countries, 'country', 'onboarding.country')}
        {state.serverMessage && (
          <Notice tone="error" code={state.serverMessage.problem.code} id="server-error">
            {partnerProblemText(state.serverMessage.problem)}
          </Notice>
        )}
        {busy && <p role="status">{t(opensAccount ? 'onboarding.submitting' : 'app.loading')}</p>}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t(opensAccount ? 'onboarding.submit' : 'onboarding.next')}
          </button>
        </div>
      </form>
    </Screen>
  )
}

/** What each field reads: the screen's state, whether it is busy, and how it edits. */
type Form = { state: State; busy: boolean; edit: (field: Field) => (e: Event) => void }

const describedBy = (state: State, field: Field, hint?: boolean) =>
  [hint ? `${field}-hint` : '', state.errors[field] ? `${field}-error` : '', state.serverMessage?.field === field ? 'server-error' : '']
    .filter(Boolean)
    .join(' ') || undefined

const fieldError = (state: State, field: Field) =>
  state.errors[field] && (
    <p id={`${field}-error`} class="field-error">
      {t(`field.${state.errors[field]}` as MessageKey)}
    </p>
  )

function countrySelect({ state, busy, edit }: Form, countries: ReturnType<typeof countryOptions>, field: 'nationality' | 'country', label: MessageKey) {
  return (
    <div class="field">
      <label for={field}>{t(label)}</label>
      <select
        id={field}
        value={state.form[field]}
        disabled={busy}
        aria-invalid={state.errors[field] ? 'true' : undefined}
        aria-describedby={describedBy(state, field)}
        onChange={edit(field)}
      >
        <option value="">{t('onboarding.choose')}</option>
        {countries.map(([code, name]) => (
          <option value={code}>{name}</option>
        ))}
      </select>
      {fieldError(state, field)}
    </div>
  )
}

function textField({ state, busy, edit }: Form, field: 'phone' | 'name' | 'email', label: MessageKey, props: Record<string, string>, hint?: MessageKey) {
  return (
    <div class="field">
      <label for={field}>{t(label)}</label>
      <input
        id={field}
        class="text"
        value={state.form[field]}
        readOnly={busy}
        aria-invalid={state.errors[field] ? 'true' : undefined}
        aria-describedby={describedBy(state, field, !!hint)}
        onInput={edit(field)}
        {...props}
      />
      {hint && (
        <p id={`${field}-hint`} class="muted">
          {t(hint)}
        </p>
      )}
      {fieldError(state, field)}
    </div>
  )
}
