// The messages the kit asked users to sign with a wallet, each taken once (../walletLink.ts).
import { SCHEMA } from './migrations'
import type { PaymentStore } from './paymentStore'
import type { Db } from './sql'

export function createWalletChallenges(db: Db): Pick<PaymentStore, 'recordChallenge' | 'takeChallenge'> {
  return {
    async recordChallenge({ nonce, userId, address, chainId, origin, message, expiresAt }, now) {
      if (!nonce || !userId || !/^0x[0-9a-f]{40}$/.test(address)) throw new TypeError('recordChallenge: nonce, userId and a lower-case 0x address are required')
      await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${SCHEMA}.wallet_challenges WHERE expires_at <= $1`, [now.toISOString()])
        await tx.query(
          `DELETE FROM ${SCHEMA}.wallet_challenges WHERE user_id = $1 AND nonce NOT IN
           (SELECT nonce FROM ${SCHEMA}.wallet_challenges WHERE user_id = $1 ORDER BY created_at DESC, nonce LIMIT 9)`,
          [userId],
        )
        await tx.query(
          `INSERT INTO ${SCHEMA}.wallet_challenges (nonce, user_id, address, chain_id, origin, message, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [nonce, userId, address, chainId, origin, message, expiresAt.toISOString()],
        )
      })
    },

    async takeChallenge(nonce) {
      // One statement: of two requests with one nonce, exactly one gets the row.
      const { rows } = await db.query<{ user_id: string; address: string; chain_id: number; origin: string; message: string; expires_at: Date | string }>(
        `DELETE FROM ${SCHEMA}.wallet_challenges WHERE nonce = $1 RETURNING user_id, address, chain_id, origin, message, expires_at`,
        [nonce],
      )
      const row = rows[0]
      return (
        row && {
          nonce,
          userId: row.user_id,
          address: row.address,
          chainId: row.chain_id,
          origin: row.origin,
          message: row.message,
          expiresAt: new Date(row.expires_at),
        }
      )
    },
  }
}
