import { t } from '../../i18n/i18n'

/** Which environment answered, on every card screen that has had an answer. */
export function Environment({ environment }: { environment?: string }) {
  if (!environment) return null
  return <p class="environment">{environment === 'sandbox' ? t('card.sandboxEnvironment') : t('card.environment', { environment })}</p>
}
