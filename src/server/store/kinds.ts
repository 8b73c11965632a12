// What the kit creates for a user and then follows: each kind is one status endpoint of the
// service's partner path (reconcile/status.ts says which).
export const paymentKinds = ['card', 'bankDeposit', 'payout', 'cardPayout', 'deposit'] as const
export type PaymentKind = (typeof paymentKinds)[number]

/**
 * A crypto deposit has no id of the service: it is known by its routing provider and the hash of
 * the transaction that started it. Hashes are hex, so their case is not part of the id.
 */
export function cryptoDepositId(provider: string, txHash: string): string {
  return `${provider}:${txHash.toLowerCase()}`
}
