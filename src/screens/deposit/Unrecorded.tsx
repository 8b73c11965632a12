import { Notice } from '../../components/Notice'
import { t } from '../../i18n/i18n'

/**
 * The partner's kit refused to record this deposit (flows/deposit/report.ts): it was sent and is
 * followed as any; whether the shop credits it is the shop's matter. What the buyer may do, and the
 * whole transaction hash to do it with.
 */
export function Unrecorded({ hash }: { hash: string }) {
  return (
    <Notice tone="info">
      {t('track.unrecorded')}
      <br />
      <code>{hash}</code>
    </Notice>
  )
}
