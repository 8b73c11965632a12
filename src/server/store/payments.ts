// The payments table: each payment the kit created, against its user, with what its status
// requests need and the last status the reconciler saw.
import type { PaymentKind } from './kinds'
import { SCHEMA } from './migrations'
import type { PaymentStore } from './paymentStore'
import type { Db } from './sql'

const DECIMAL = /^\d{1,18}(\.\d{1,18})?$/

type Payments = Pick<PaymentStore, 'recordPayment' | 'ownerOf' | 'detailsOf' | 'depositOf' | 'listPayments' | 'usage' | 'onRecorded'>

export function createPayments(db: Db): Payments {
  const recorded = new Set<(payment: { kind: PaymentKind; id: string }) => void>()
  return {
    async recordPayment({ kind, id, userId, details, status, amount, currency, createdAt }) {
      if (!id || !userId) throw new TypeError('recordPayment: id and userId are required')
      if (amount !== undefined && !DECIMAL.test(amount)) throw new TypeError('recordPayment: amount must be a decimal string like "25.50"')
      if ((amount === undefined) !== (currency === undefined)) throw new TypeError('recordPayment: amount and currency go together')
      // No conflict target: a crypto deposit's transaction already held under another id (another
      // spelling of the provider) is a conflict too, and this id then stays nobody's (false below).
      if (createdAt !== undefined && !(createdAt instanceof Date && Number.isFinite(createdAt.getTime())))
        throw new TypeError('recordPayment: createdAt must be a valid Date')
      await db.query(
        `INSERT INTO ${SCHEMA}.payments (kind, id, user_id, details, status, amount, currency, created_at, next_check_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6::numeric, $7, coalesce($8::timestamptz, now()), coalesce($8::timestamptz, now())) ON CONFLICT DO NOTHING`,
        [
          kind,
          id,
          userId,
          details === undefined ? null : JSON.stringify(details),
          status ?? null,
          amount ?? null,
          currency ?? null,
          createdAt?.toISOString() ?? null,
        ],
      )
      const mine = (await this.ownerOf(kind, id)) === userId
      if (mine) {
        for (const listener of recorded) {
          try {
            listener({ kind, id })
          } catch {
            // A listener's failure is its own: the payment is recorded.
          }
        }
      }
      return mine
    },

    async ownerOf(kind, id) {
      const { rows } = await db.query<{ user_id: string }>(`SELECT user_id FROM ${SCHEMA}.payments WHERE kind = $1 AND id = $2`, [kind, id])
      return rows[0]?.user_id
    },

    async detailsOf(kind, id) {
      const { rows } = await db.query<{ details: Record<string, unknown> | null }>(`SELECT details FROM ${SCHEMA}.payments WHERE kind = $1 AND id = $2`, [
        kind,
        id,
      ])
      return rows[0]?.details ?? undefined
    },

    async depositOf(txHash) {
      // The expression of the unique index payments_deposit_tx, so that it is used.
      const { rows } = await db.query<{ id: string; user_id: string }>(
        `SELECT id, user_id FROM ${SCHEMA}.payments WHERE kind = 'deposit' AND lower(right(id, 66)) = $1`,
        [txHash.toLowerCase()],
      )
      return rows[0] && { id: rows[0].id, userId: rows[0].user_id }
    },

    async listPayments(userId, { limit = 100 } = {}) {
      const { rows } = await db.query<{
        kind: PaymentKind
        id: string
        user_id: string
        status: string | null
        record: unknown
        open: boolean
        amount: string | null
        currency: string | null
        created_at: Date | string
      }>(
        `SELECT kind, id, user_id, status, record, open, amount::text AS amount, currency, created_at FROM ${SCHEMA}.payments
         WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
        [userId, Math.max(1, Math.min(100, Math.floor(limit)))],
      )
      return rows.map((row) => ({
        kind: row.kind,
        id: row.id,
        userId: row.user_id,
        status: row.status,
        record: row.record,
        final: !row.open,
        amount: row.amount,
        currency: row.currency,
        createdAt: new Date(row.created_at),
      }))
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

    onRecorded(listener) {
      recorded.add(listener)
      return () => void recorded.delete(listener)
    },
  }
}
