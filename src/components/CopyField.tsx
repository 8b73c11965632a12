import { useState } from 'preact/hooks'
import { enCopy } from '../i18n/en-copy'
import { addEnglish, t } from '../i18n/i18n'

addEnglish(enCopy)

/** A value on its own row with a copy button; the copy is announced to screen readers. */
export function CopyField({ label, value, display, large }: { label: string; value: string; display?: string; large?: boolean }) {
  const [said, setSaid] = useState('')
  async function copy() {
    try {
      await navigator.clipboard.writeText(value)
      setSaid(t('copy.copiedLabel', { label }))
    } catch {
      setSaid(t('copy.failed'))
    }
  }
  return (
    <div class={`copy-field ${large ? 'large' : ''}`}>
      <dt>{label}</dt>
      <dd>
        <span class="value">{display ?? value}</span>
        <button type="button" class="secondary small" aria-label={t('copy.label', { label })} onClick={copy}>
          {t('copy.copy')}
        </button>
        <span class="copied" role="status">
          {said}
        </span>
      </dd>
    </div>
  )
}
