import type { ComponentChildren } from 'preact'
import { t } from '../i18n/i18n'

/** A message near what caused it; `code` is the service's code, small, for support. */
export function Notice({
  tone,
  children,
  code,
  id,
}: { tone: 'error' | 'info' | 'warning'; children: ComponentChildren; code?: string; id?: string }) {
  return (
    <div class={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'} id={id}>
      <p>{children}</p>
      {code && <p class="code">{t('error.code', { code })}</p>}
    </div>
  )
}
