// Bindings: what is a user's alone, bound on first use (a bank account and its wallet, a deposit's
// sender, a card page session), and the account a returning buyer is known by.
import { SCHEMA } from './migrations'
import type { PaymentStore } from './paymentStore'
import type { Db } from './sql'

// As the widget's accountId and walletId options (src/config/config.ts): a link it would refuse is never signed.
const OPAQUE_ID = /^[\x21-\x7e]{1,128}$/
const isId = (value: unknown): value is string => typeof value === 'string' && OPAQUE_ID.test(value)

type Bindings = Pick<PaymentStore, 'bindAccount' | 'rememberBuyer' | 'buyerOf' | 'bindAddress' | 'addressHolder' | 'bindCardSession' | 'cardSessionHolder'>

export function createBindings(db: Db): Bindings {
  return {
    bindAccount(userId, accountId, walletId) {
      if (!userId || !accountId || walletId === '') throw new TypeError('bindAccount: userId and accountId are required, and walletId is not empty')
      return bind(
        userId,
        walletId === undefined
          ? [['account', accountId]]
          : [
              ['account', accountId],
              ['wallet', walletId],
            ],
      )
    },

    async rememberBuyer(userId, buyer) {
      const { accountId, walletId, wallet } = buyer ?? {}
      if (!userId || !isId(accountId) || !isId(walletId) || typeof wallet !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) {
        throw new TypeError(
          'rememberBuyer: a userId, accountId and walletId of 1 to 128 printable characters without spaces, and a 0x wallet address are required',
        )
      }
      if (
        !(await bind(userId, [
          ['account', accountId],
          ['wallet', walletId],
        ]))
      )
        return false
      await db.query(
        `INSERT INTO ${SCHEMA}.buyers (user_id, account_id, wallet_id, wallet) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE SET account_id = EXCLUDED.account_id, wallet_id = EXCLUDED.wallet_id, wallet = EXCLUDED.wallet, remembered_at = now()`,
        [userId, accountId, walletId, wallet],
      )
      return true
    },

    async buyerOf(userId) {
      const { rows } = await db.query<{ account_id: string; wallet_id: string; wallet: string }>(
        `SELECT account_id, wallet_id, wallet FROM ${SCHEMA}.buyers WHERE user_id = $1`,
        [userId],
      )
      return rows[0] && { accountId: rows[0].account_id, walletId: rows[0].wallet_id, wallet: rows[0].wallet }
    },

    bindAddress(userId, address) {
      if (!userId || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw new TypeError('bindAddress: userId and a 0x address of 40 hex digits are required')
      return bind(userId, [['address', address.toLowerCase()]])
    },

    addressHolder: (address) => holder('address', address.toLowerCase()),

    bindCardSession(userId, sessionId) {
      if (!userId || !sessionId) throw new TypeError('bindCardSession: userId and sessionId are required')
      return bind(userId, [['cardSession', sessionId]])
    },

    cardSessionHolder: (sessionId) => holder('cardSession', sessionId),
  }

  async function holder(what: string, value: string): Promise<string | undefined> {
    const { rows } = await db.query<{ user_id: string }>(`SELECT user_id FROM ${SCHEMA}.bindings WHERE what = $1 AND value = $2`, [what, value])
    return rows[0]?.user_id
  }

  function bind(userId: string, pairs: ReadonlyArray<readonly [string, string]>): Promise<boolean> {
    return db
      .transaction(async (tx) => {
        // A concurrent insert of the same key waits here for the other transaction to end, then
        // sees its row: the loser reads the winner's user below.
        const values = pairs.map((_, i) => `($${2 * i + 2}, $${2 * i + 3}, $1)`).join(', ')
        await tx.query(`INSERT INTO ${SCHEMA}.bindings (what, value, user_id) VALUES ${values} ON CONFLICT DO NOTHING`, [userId, ...pairs.flat()])
        const where = pairs.map((_, i) => `(what = $${2 * i + 1} AND value = $${2 * i + 2})`).join(' OR ')
        const { rows } = await tx.query<{ user_id: string }>(`SELECT user_id FROM ${SCHEMA}.bindings WHERE ${where}`, pairs.flat())
        if (rows.length !== pairs.length || rows.some((row) => row.user_id !== userId)) throw REFUSED
        return true
      })
      .catch((error) => {
        // Refused: rolled back, so the part that was free stays free.
        if (error === REFUSED) return false
        throw error
      })
  }
}

const REFUSED = Symbol('bound to another user')
