// The one-off bank deposit's strings in English, loaded with the flow in two parts (the amount
// screen's with the entry, the details' with their screens). The limits line's words, which the
// payout shows too, are shared (shared/en-limits.ts).
import { enBankDepositAmount } from './bankDeposit/en-amount'
import { enBankDepositDetails } from './bankDeposit/en-details'

export const enBankDeposit = { ...enBankDepositAmount, ...enBankDepositDetails }

export type BankDepositKey = keyof typeof enBankDeposit
