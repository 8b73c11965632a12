// The screens after the deposit exists (details, arrival, result), with their strings: fetched
// while the buyer types the amount, so the first screen does not wait for them.
import { enBankDepositDetails } from '../../i18n/bankDeposit/en-details'
import { addEnglish } from '../../i18n/i18n'

addEnglish(enBankDepositDetails)

export { FollowScreen } from './FollowScreen'
export { ResultScreen } from './ResultScreen'
