// The one-off bank deposit's strings in English, loaded with the flow in two parts (the amount
// screen's with the entry, the details' with their screens); and the reference-data words
// (bankDeposit/en-limits.ts), which the payout and card flows show too.
import { enBankDepositAmount } from './bankDeposit/en-amount'
import { enBankDepositDetails } from './bankDeposit/en-details'

export { enLimits, type LimitsKey } from './bankDeposit/en-limits'

export const enBankDeposit = { ...enBankDepositAmount, ...enBankDepositDetails }

export type BankDepositKey = keyof typeof enBankDeposit
