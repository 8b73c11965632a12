// The beneficiary step: its form, schemas' words and checks' words are a chunk of their own, fetched
// as the flow starts (the first screen does not wait for them) and shown once here.
import { Notice } from '../../components/Notice'
import { t } from '../../i18n/i18n'
import { lazyPart, useLazyPart } from '../../kernel/lazyPart'
import type { BeneficiaryProps } from './BeneficiaryForm'

const form = lazyPart(() => import('./BeneficiaryForm'))
// A failed fetch is tried again when the step shows.
form.load().catch(() => {})

export function BeneficiaryScreen(props: BeneficiaryProps) {
  const part = useLazyPart(form, true)
  if (part === 'failed') return <Notice tone="error">{t('app.loadFailed')}</Notice>
  if (!part) return <p role="status">{t('app.loading')}</p>
  return <part.BeneficiaryForm {...props} />
}
