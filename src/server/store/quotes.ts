// The quotes the kit handed to each user, with their amount: a payout names its quote, not its
// amount, and a per-user amount ceiling counts the quote's.
import { SCHEMA } from './migrations'
import type { PaymentStore } from './paymentStore'
import type { Db } from './sql'

const DECIMAL = /^\d{1,18}(\.\d{1,18})?$/

export function createQuotes(db: Db): Pick<PaymentStore, 'recordQuote' | 'quoteOf'> {
  return {
    async recordQuote({ id, userId, amount, currency }) {
      if (!id || !userId || !DECIMAL.test(amount) || !currency) throw new TypeError('recordQuote: id, userId, a decimal amount and its currency are required')
      await db.query(`DELETE FROM ${SCHEMA}.quotes WHERE created_at < now() - interval '1 day'`)
      await db.query(`INSERT INTO ${SCHEMA}.quotes (id, user_id, amount, currency) VALUES ($1, $2, $3::numeric, $4) ON CONFLICT DO NOTHING`, [
        id,
        userId,
        amount,
        currency,
      ])
    },

    async quoteOf(id) {
      const { rows } = await db.query<{ user_id: string; amount: string; currency: string }>(
        `SELECT user_id, amount::text AS amount, currency FROM ${SCHEMA}.quotes WHERE id = $1 AND created_at >= now() - interval '1 day'`,
        [id],
      )
      return rows[0] && { userId: rows[0].user_id, amount: rows[0].amount, currency: rows[0].currency }
    },
  }
}
