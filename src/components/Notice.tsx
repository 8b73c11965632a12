import type { ComponentChildren } from 'preact'
import { problemText } from '../errors/words'
import { type MessageKey, t } from '../i18n/i18n'

/** A message near what caused it; `code` is the service's code, small, for support. */
export function Notice({ tone, children, code, id }: { tone: 'error' | 'info' | 'warning'; children: ComponentChildren; code?: string; id?: string }) {
  return (
    <div class={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : 'status'} id={id}>
      <p>{children}</p>
      {code && <p class="code">{t('error.code', { code })}</p>}
    </div>
  )
}

/** A failure the buyer can act on: what happened, the code for support, and one way to retry. */
export function ProblemNotice({
  problem,
  onRetry,
  text,
}: {
  problem: { key: MessageKey; code?: string; detail?: string }
  onRetry?: () => void
  text?: string
}) {
  return (
    <>
      <Notice tone="error" code={problem.code}>
        {text ?? problemText(problem)}
      </Notice>
      {onRetry && (
        <div class="actions">
          <button type="button" class="primary" onClick={onRetry}>
            {t('quote.tryAgain')}
          </button>
        </div>
      )}
    </>
  )
}
