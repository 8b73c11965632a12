// PLACEHOLDER while the bankDeposit flow is being built in this session (replaced by its owner).
import { Screen } from '../../components/Screen'
import { t } from '../../i18n/i18n'

export default function BankDepositFlow() {
  return <Screen title={t('bankDeposit.name')}>{null}</Screen>
}
