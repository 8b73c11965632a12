// The screens after the deposit exists (details, arrival, result), with their strings: fetched
// while the buyer types the amount, so the first screen does not wait for them.
import { enBankDepositDetails } from '../../i18n/bankDeposit/en-details'
import { addEnglish } from '../../i18n/i18n'
import { FollowScreen as Follow } from './FollowScreen'
import { ResultScreen as Result } from './ResultScreen'

addEnglish(enBankDepositDetails)

// Bindings of this module (not re-exports): the package is side-effect free, so a module only
// re-exporting would be skipped, and its strings with it.
export const FollowScreen = Follow
export const ResultScreen = Result
