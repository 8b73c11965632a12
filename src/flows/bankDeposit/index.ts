// The bank deposit's door for its screens (src/screens/bankDeposit/): what they may read of the flow.
export type { BankDepositEvent, BankDepositState, FormState } from './machine'
