import { useEffect, useRef } from 'preact/hooks'
import { fieldProblemText } from '../../errors/payoutWords'
import { problemText } from '../../errors/words'
import { Notice } from '../../components/Notice'
import { Screen } from '../../components/Screen'
import {
  type BeneficiaryField,
  beneficiarySchema,
  type BeneficiaryState,
  type DestinationEvent,
  type FieldProblem,
  schemasFor,
  type Word,
} from '../../flows/payout'
import { enBeneficiary } from '../../i18n/en-beneficiary'
import { type MessageKey, addEnglish, t } from '../../i18n/i18n'
import { countryOptions } from '../../lib/country'
import { railName } from '../../lib/limits'

// The form's words come with it (it is fetched as the flow starts, not with the first screen).
addEnglish(enBeneficiary)

export type BeneficiaryProps = { state: BeneficiaryState; dispatch: (e: DestinationEvent) => void; locale: string }

const fieldId = (name: string) => `bf-${name.replace(/\W/g, '-')}`
/** A word of the schemas (destination.ts types it by its key in en-beneficiary.ts, which this chunk brings). */
const say = (word: Word) => t(word as MessageKey)

export function BeneficiaryForm({ state, dispatch, locale }: BeneficiaryProps) {
  const busy = state.work !== 'idle'
  const offered = schemasFor(state.ask, state.quote.rail)
  const schema = state.draft.schema && offered.includes(state.draft.schema) ? beneficiarySchema(state.draft.schema) : undefined
  // The service's word on the schema itself (400 naming beneficiary.schema): its rail takes another kind of account.
  const refused = state.problems.schema
  const notOffered = t('payout.railNotOffered', { rail: railName(state.quote.rail) })
  const form = useRef<HTMLFormElement>(null)
  const submitted = useRef(false)
  // After "Create", once the form is idle again: the first field in trouble takes the focus, so its words are read.
  useEffect(() => {
    if (!submitted.current || busy) return
    submitted.current = false
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [state.problems, busy])
  return (
    <Screen title={t('payout.beneficiaryHeading')}>
      {!schema ? (
        <NotOffered words={notOffered} dispatch={dispatch} />
      ) : (
        <form
          ref={form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            submitted.current = true
            dispatch({ type: 'SUBMIT', now: Date.now() })
          }}
        >
          {/* One kind of account per rail (beneficiary.ts, schemasFor): another is had by choosing its rail on the payout form. */}
          <p>
            {t('payout.schemaLegend')}: <strong>{say(schema.label)}</strong>
          </p>
          {refused && <p class="field-error">{notOffered}</p>}
          {schema.fields.map((field) => (
            <Field
              field={field}
              value={state.draft.values[field.name] ?? field.initial ?? ''}
              problem={state.problems[field.name]}
              busy={busy}
              locale={locale}
              dispatch={dispatch}
            />
          ))}
          {schema.purpose && <PurposeField state={state} busy={busy} dispatch={dispatch} />}
          <p class="muted">{t('payout.beneficiaryFinal')}</p>
          {state.problem && (
            <Notice tone="error" code={state.problem.code}>
              {problemText(state.problem)}
            </Notice>
          )}
          {busy && <p role="status">{t('payout.creating')}</p>}
          <div class="actions">
            <button data-back type="button" class="secondary" disabled={busy} onClick={() => dispatch({ type: 'BACK' })}>
              {t('app.back')}
            </button>
            <button type="submit" class="primary" disabled={busy}>
              {t('payout.create')}
            </button>
          </div>
        </form>
      )}
    </Screen>
  )
}

/** The rail takes no kind of account we offer: said, with the way back to the price. */
function NotOffered({ words, dispatch }: { words: string; dispatch: (e: DestinationEvent) => void }) {
  return (
    <>
      <Notice tone="warning">{words}</Notice>
      <div class="actions">
        <button data-back type="button" class="secondary" onClick={() => dispatch({ type: 'BACK' })}>
          {t('app.back')}
        </button>
      </div>
    </>
  )
}

/** The optional remittance purpose, where the schema offers it. */
function PurposeField({ state, busy, dispatch }: { state: BeneficiaryState; busy: boolean; dispatch: (e: DestinationEvent) => void }) {
  const problem = state.problems.purpose
  return (
    <div class="field">
      <label for="bf-purpose">
        {t('payout.field.purpose')} <span class="muted">{t('payout.optional')}</span>
      </label>
      <input
        id="bf-purpose"
        class="text"
        value={state.draft.purpose}
        readOnly={busy}
        maxLength={512}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={problem ? 'bf-purpose-hint bf-purpose-error' : 'bf-purpose-hint'}
        onInput={(e) => dispatch({ type: 'EDIT', purpose: (e.target as HTMLInputElement).value })}
      />
      <p id="bf-purpose-hint" class="muted">
        {t('payout.field.purposeHint')}
      </p>
      {problem && (
        <p id="bf-purpose-error" class="field-error">
          {fieldProblemText(problem)}
        </p>
      )}
    </div>
  )
}

function Field({
  field,
  value,
  problem,
  busy,
  locale,
  dispatch,
}: {
  field: BeneficiaryField
  value: string
  problem?: FieldProblem
  busy: boolean
  locale: string
  dispatch: (e: DestinationEvent) => void
}) {
  const id = fieldId(field.name)
  const describedBy = [field.hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  const common = {
    id,
    name: field.name,
    value,
    'aria-invalid': problem ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
    autoComplete: field.autocomplete,
  }
  const onValue = (e: Event) => dispatch({ type: 'EDIT', values: { [field.name]: (e.target as HTMLInputElement).value } })
  return (
    <div class="field">
      <label for={id}>{say(field.label)}</label>
      {field.input === 'text' ? (
        <input
          {...common}
          class="text"
          readOnly={busy}
          spellcheck={false}
          inputMode={field.inputMode}
          autoCapitalize={field.autocapitalize}
          maxLength={field.maxLength}
          onInput={onValue}
        />
      ) : (
        <select {...common} disabled={busy} onChange={onValue}>
          {field.input === 'country' ? (
            <>
              <option value="">{t('payout.choose')}</option>
              {countryOptions(locale).map(([code, name]) => (
                <option value={code}>{name}</option>
              ))}
            </>
          ) : (
            field.options?.map((o) => <option value={o.value}>{say(o.label)}</option>)
          )}
        </select>
      )}
      {field.hint && (
        <p id={`${id}-hint`} class="muted">
          {say(field.hint)}
        </p>
      )}
      {problem && (
        <p id={`${id}-error`} class="field-error">
          {fieldProblemText(problem)}
        </p>
      )}
    </div>
  )
}
