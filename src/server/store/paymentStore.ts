// Who owns what: every payment the kit creates is recorded against the partner's user, and the
// bank account a user first pays with is bound to that user. The reconciler follows the same rows.
import type { PaymentKind } from './kinds'
import { SCHEMA } from './migrations'
import type { Db } from './sql'

export type NewPayment = {
  kind: PaymentKind
  /** The service's id; for a crypto deposit, `cryptoDepositId(provider, txHash)`. */
  id: string
  userId: string
  /** What the status request needs besides the id (a crypto deposit's `{ provider, receipt }`). */
  details?: Record<string, unknown>
  /** The status the service answered on creation, if any: the first change is counted from it. */
  status?: string
  /** For per-user limits: a decimal string and its currency, as the partner counts them. */
  amount?: string
  currency?: string
}

export type Usage = {
  count: number
  /** Sum of the amounts per currency, as decimal strings (never added across currencies). */
  totals: Record<string, string>
}

export interface PaymentStore {
  readonly db: Db
  /**
   * Records the payment against the user. True when the payment is that user's (new, or recorded
   * before for the same user); false when another user holds it: the id is never handed over.
   */
  recordPayment(payment: NewPayment): Promise<boolean>
  /** The user who created the payment, or undefined when the kit never recorded it. */
  ownerOf(kind: PaymentKind, id: string): Promise<string | undefined>
  /**
   * Binds the account and its wallet to the user on first use. True when both are (now) that
   * user's; false, binding nothing, when either is another user's. Of two users binding at once,
   * exactly one gets true.
   */
  bindAccount(userId: string, accountId: string, walletId: string): Promise<boolean>
  /** The user's payments of a kind created at or after `since`, whatever their status. */
  usage(userId: string, kind: PaymentKind, since: Date): Promise<Usage>
  close(): Promise<void>
}

const DECIMAL = /^\d{1,18}(\.\d{1,18})?$/

export function createPaymentStore(db: Db): PaymentStore {
  return {
    db,
    async recordPayment({ kind, id, userId, details, status, amount, currency }) {
      if (!id || !userId) throw new TypeError('recordPayment: id and userId are required')
      if (amount !== undefined && !DECIMAL.test(amount)) throw new TypeError('recordPayment: amount must be a decimal string like "25.50"')
      if ((amount === undefined) !== (currency === undefined)) throw new TypeError('recordPayment: amount and currency go together')
      await db.query(
        `INSERT INTO ${SCHEMA}.payments (kind, id, user_id, details, status, amount, currency)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6::numeric, $7) ON CONFLICT (kind, id) DO NOTHING`,
        [kind, id, userId, details === undefined ? null : JSON.stringify(details), status ?? null, amount ?? null, currency ?? null],
      )
      return (await this.ownerOf(kind, id)) === userId
    },

    async ownerOf(kind, id) {
      const { rows } = await db.query<{ user_id: string }>(`SELECT user_id FROM ${SCHEMA}.payments WHERE kind = $1 AND id = $2`, [kind, id])
      return rows[0]?.user_id
    },

    bindAccount(userId, accountId, walletId) {
      if (!userId || !accountId || !walletId) throw new TypeError('bindAccount: userId, accountId and walletId are required')
      return db
        .transaction(async (tx) => {
          // A concurrent insert of the same key waits here for the other transaction to end, then
          // sees its row: the loser reads the winner's user below.
          await tx.query(
            `INSERT INTO ${SCHEMA}.bindings (what, value, user_id) VALUES ('account', $1, $3), ('wallet', $2, $3) ON CONFLICT DO NOTHING`,
            [accountId, walletId, userId],
          )
          const { rows } = await tx.query<{ user_id: string }>(
            `SELECT user_id FROM ${SCHEMA}.bindings WHERE (what = 'account' AND value = $1) OR (what = 'wallet' AND value = $2)`,
            [accountId, walletId],
          )
          if (rows.length !== 2 || rows.some((row) => row.user_id !== userId)) throw REFUSED
          return true
        })
        .catch((error) => {
          // Refused: rolled back, so the half of the pair that was free stays free.
          if (error === REFUSED) return false
          throw error
        })
    },

    async usage(userId, kind, since) {
      const { rows } = await db.query<{ currency: string | null; count: number; total: string | null }>(
        `SELECT currency, count(*)::integer AS count, sum(amount)::text AS total FROM ${SCHEMA}.payments
         WHERE user_id = $1 AND kind = $2 AND created_at >= $3 GROUP BY currency`,
        [userId, kind, since.toISOString()],
      )
      const totals: Record<string, string> = {}
      for (const row of rows) if (row.currency !== null && row.total !== null) totals[row.currency] = row.total
      return { count: rows.reduce((sum, row) => sum + row.count, 0), totals }
    },

    close: () => db.close(),
  }
}

const REFUSED = Symbol('bound to another user')
