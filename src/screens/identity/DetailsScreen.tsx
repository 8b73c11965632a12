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

/** `opensAccount`: the virtual-account flow's words ("Open my account"); the other bank flows go on ("Continue"). */
export function DetailsScreen({ state, dispatch, locale, opensAccount = true }: { state: State; dispatch: (e: IdentityEvent) => void; locale: string; opensAccount?: boolean }) {
  const countries = useMemo(() => countryOptions(locale), [locale])
  const edit = (field: Field) => (e: Event) => dispatch({ type: 'EDIT', field, value: (e.target as HTMLInputElement).value })
  const busy = state.work !== 'idle'
  const errorOf = (field: Field) => state.errors[field]
  const described = (field: Field, hint?: boolean) =>
    [hint ? `${field}-hint` : '', errorOf(field) ? `${field}-error` : '', state.serverMessage?.field === field ? 'server-error' : '']
      .filter(Boolean)
      .join(' ') || undefined
  const fieldError = (field: Field) =>
    errorOf(field) && (
      <p id={`${field}-error`} class="field-error">
        {t(`field.${errorOf(field)}` as MessageKey)}
      </p>
    )
  const countrySelect = (field: 'nationality' | 'country', label: MessageKey) => (
    <div class="field">
      <label for={field}>{t(label)}</label>
      <select id={field} value={state.form[field]} disabled={busy} aria-invalid={errorOf(field) ? 'true' : undefined} aria-describedby={described(field)} onChange={edit(field)}>
        <option value="">{t('onboarding.choose')}</option>
        {countries.map(([code, name]) => (
          <option value={code}>{name}</option>
        ))}
      </select>
      {fieldError(field)}
    </div>
  )
  const text = (field: 'phone' | 'name' | 'email', label: MessageKey, props: Record<string, string>, hint?: MessageKey) => (
    <div class="field">
      <label for={field}>{t(label)}</label>
      <input
        id={field}
        class="text"
        value={state.form[field]}
        readOnly={busy}
        aria-invalid={errorOf(field) ? 'true' : undefined}
        aria-describedby={described(field, !!hint)}
        onInput={edit(field)}
        {...props}
      />
      {hint && <p id={`${field}-hint`} class="muted">{t(hint)}</p>}
      {fieldError(field)}
    </div>
  )
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
        {text('name', 'onboarding.fullName', { autoComplete: 'name' })}
        {text('email', 'onboarding.email', { type: 'email', autoComplete: 'email' })}
        {text('phone', 'onboarding.phone', { type: 'tel', autoComplete: 'tel' }, 'onboarding.phoneHint')}
        {countrySelect('nationality', 'onboarding.nationality')}
        {countrySelect('country', 'onboarding.country')}
        {state.serverMessage && (
          <Notice tone="error" code={state.serverMessage.problem.code} id="server-error">
            {partnerProblemText(state.serverMessage.problem)}
          </Notice>
        )}
        {busy && <p role="status">{t(opensAccount ? 'onboarding.submitting' : 'app.loading')}</p>}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>{t(opensAccount ? 'onboarding.submit' : 'onboarding.next')}</button>
        </div>
      </form>
    </Screen>
  )
}
