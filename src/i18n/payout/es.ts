// The payout flow's strings in es: every key of its English part (the catalogs test checks).
import type { PayoutKey } from '../en-payout'

export const payoutEs: Partial<Record<PayoutKey, string>> = {}
