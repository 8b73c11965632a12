import type { ComponentChildren } from 'preact'
import { enAmount } from '../i18n/shared/en-amount'
import { addEnglish } from '../i18n/i18n'

addEnglish(enAmount)

/** The amount the buyer types: the biggest text on its screen, its unit beside it, errors tied to it. */
export function AmountField({
  id,
  label,
  unit,
  value,
  error,
  hints = [],
  readOnly,
  onInput,
  children,
}: {
  id: string
  label: string
  unit: string
  value: string
  error?: string
  /** ids of hint paragraphs (rendered by the caller as children) */
  hints?: string[]
  readOnly?: boolean
  onInput: (value: string) => void
  children?: ComponentChildren
}) {
  const describedBy = [...hints, error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="amount-input">
        <input
          id={id}
          name={id}
          inputMode="decimal"
          autoComplete="off"
          spellcheck={false}
          value={value}
          readOnly={readOnly}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={describedBy}
          onInput={(e) => onInput((e.target as HTMLInputElement).value)}
        />
        <span class="unit" aria-hidden="true">
          {unit}
        </span>
      </div>
      {children}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  )
}
