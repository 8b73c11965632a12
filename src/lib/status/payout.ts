// The bank payout's statuses, and the ones that end it (partner-api.md, "Bank payout"). No imports: the api's
// schemas and the payout's machine both read it.

/** The six payout statuses (partner-api.md, "Bank payout statuses"). */
export const payoutStatuses = ['pending', 'converting', 'sent', 'settled', 'rejected', 'returned'] as const
export type PayoutStatusName = (typeof payoutStatuses)[number]

/**
 * Polling stops on these. Only `settled` is success; `sent` is not arrival. `returned` is money
 * coming back (as stablecoin to the sending wallet, minus the rail's cost), not money lost.
 */
export const payoutFinal = ['settled', 'rejected', 'returned'] as const

/**
 * Whether the service's record says money reached this payout's address (its funding transaction,
 * or any status past pending): then it is followed, never sent to again. Only the record of this
 * very payout (`id`) speaks for it.
 */
export function payoutFunded(record: { id: string; status: string; depositTxHash?: string }, id: string): boolean {
  return record.id === id && (!!record.depositTxHash || record.status !== 'pending')
}
