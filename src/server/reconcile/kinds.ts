// Each kind the reconciler follows: the service's partner-path status endpoint, the contract's
// schema of its answer (shared with the widget, src/api) and the statuses after which nothing moves.
import * as z from 'zod/mini'
import { bankDepositFinal } from '../../lib/status/bankDeposit'
import { payoutFinal } from '../../api/payout'
import { bankDepositStatus } from '../../api/schemas-bankDeposit'
import { cardStatus } from '../../api/schemas-card'
import { depositStatus, depositStatusRequest } from '../../api/schemas-deposit'
import { payoutStatus } from '../../api/schemas-payout'
import type { PaymentKind } from '../store/kinds'
import { cardFinal } from '../../lib/status/card'

export const statusSchemas = {
  card: cardStatus,
  bankDeposit: bankDepositStatus,
  payout: payoutStatus,
  // The card payout's record is the bank payout's without rail and bankReference, both optional there.
  cardPayout: payoutStatus,
  deposit: depositStatus,
} satisfies Record<PaymentKind, z.ZodMiniType<{ status: string }>>

export type StatusRecord<K extends PaymentKind = PaymentKind> = z.infer<(typeof statusSchemas)[K]>

/**
 * A bank deposit's `expired` is not final (money sent before expiresAt still arrives), nor is an
 * unknown card state: those stay followed, less and less often while nothing changes.
 */
export const finalStatuses: Record<PaymentKind, readonly string[]> = {
  card: cardFinal,
  bankDeposit: bankDepositFinal,
  payout: payoutFinal,
  cardPayout: payoutFinal,
  deposit: ['done', 'failed', 'expired'],
}

/** The partner-path endpoint (under apiBase) and the body that asks it about one payment. */
export const statusRequests: Record<PaymentKind, { path: string; body(id: string, details: unknown): unknown }> = {
  card: { path: '/v1/card/status', body: (id) => ({ id }) },
  bankDeposit: { path: '/v1/bank/deposit/status', body: (id) => ({ id }) },
  payout: { path: '/v1/bank/payout/status', body: (id) => ({ id }) },
  cardPayout: { path: '/v1/card/payout/status', body: (id) => ({ id }) },
  // Known by provider and receipt, both recorded as the payment's details.
  deposit: { path: '/v1/deposit/status', body: (_id, details) => depositStatusRequest.parse(details) },
}
