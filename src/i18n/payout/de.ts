// The payout flow's strings in de: every key of its English part (the catalogs test checks).
import type { PayoutKey } from '../en-payout'

export const payoutDe: Partial<Record<PayoutKey, string>> = {}
