// The flow's first screen, shown once its stored records are checked (kernel/firstScreen.ts).
import type { ComponentChildren } from 'preact'
import { t } from '../i18n/i18n'
import type { LazyPart } from '../kernel/lazyPart'
import { useFirstScreen } from '../kernel/firstScreen'
import { Notice } from './Notice'

/** The flow's screens once it may start (see useFirstScreen). */
export function FirstScreen({
  checks,
  stored,
  later,
  children,
}: {
  checks: LazyPart<unknown>[]
  stored: () => boolean
  later: Array<{ preload?(): void }>
  children: () => ComponentChildren
}) {
  const status = useFirstScreen(checks, stored, later)
  if (status === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (status === 'resuming') return <p role="status">{t('app.loading')}</p>
  return <>{children()}</>
}
