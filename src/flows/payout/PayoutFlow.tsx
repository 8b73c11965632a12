// PLACEHOLDER while the payout flow is being built in this session (replaced by its owner).
import { Screen } from '../../components/Screen'
import { t } from '../../i18n/i18n'

export default function PayoutFlow() {
  return <Screen title={t('payout.name')}>{null}</Screen>
}
