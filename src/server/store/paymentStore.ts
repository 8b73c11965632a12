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
  /**
   * When the payment was created, on the kit's clock (default: the database's now). Its first look
   * is counted from it; a simulated clock (tests, the bench) passes its own time.
   */
  createdAt?: Date
}

export type Usage = {
  count: number
  /** Sum of the amounts per currency, as decimal strings (never added across currencies). */
  totals: Record<string, string>
}

/** A payment as `listPayments` answers it: what the kit recorded, and the last status it observed. */
export type ListedPayment = {
  kind: PaymentKind
  id: string
  userId: string
  /** The last status seen (on creation or by the reconciler); null when none was seen yet. */
  status: string | null
  /** The service's last status record, as the reconciler checked it against the contract. */
  record: unknown
  /** The reconciler no longer follows it: its status is final (or it was followed too long). */
  final: boolean
  amount: string | null
  currency: string | null
  createdAt: Date
}

/** A message the kit asked a user to sign with a wallet, to link it (src/server/walletLink.ts). */
export type WalletChallenge = {
  nonce: string
  userId: string
  /** Lower case. */
  address: string
  chainId: number
  /** The page the message was given to (its domain and URI). */
  origin: string
  /** The EIP-4361 message, exactly as given. */
  message: string
  expiresAt: Date
}

/** A user's verified account, as /fiat/onboard returned it, and the wallet it was made for: what a link signs for a returning buyer. */
export type KnownBuyer = { accountId: string; walletId: string; wallet: string }

export interface PaymentStore {
  readonly db: Db
  /**
   * Records the payment against the user. True when the payment is that user's (new, or recorded
   * before for the same user); false when another user holds it: the id is never handed over.
   */
  recordPayment(payment: NewPayment): Promise<boolean>
  /** The user who created the payment, or undefined when the kit never recorded it. */
  ownerOf(kind: PaymentKind, id: string): Promise<string | undefined>
  /** What was recorded with the payment for its status requests (a crypto deposit's `{ provider, receipt }`). */
  detailsOf(kind: PaymentKind, id: string): Promise<Record<string, unknown> | undefined>
  /**
   * Binds the account and its wallet (a payout names the account alone) to the user on first use.
   * True when all are (now) that user's; false, binding nothing, when any is another user's. Of
   * two users binding at once, exactly one gets true.
   */
  bindAccount(userId: string, accountId: string, walletId?: string): Promise<boolean>
  /**
   * Keeps the account /fiat/onboard returned for the user (the browser reached the service, not the
   * kit), so a link signed later names it: a returning buyer on a new device. Binds the account and
   * its wallet id to the user first, as bindAccount: false, keeping nothing, when either is another
   * user's. The last one kept is the user's. Ids as the widget takes them (1 to 128 printable
   * characters, no space), the wallet a 0x address.
   */
  rememberBuyer(userId: string, buyer: KnownBuyer): Promise<boolean>
  /** The account last kept for the user by rememberBuyer, or undefined. */
  buyerOf(userId: string): Promise<KnownBuyer | undefined>
  /** Binds an on-chain address (a crypto deposit's sender) to the user, as bindAccount does; case does not matter. */
  bindAddress(userId: string, address: string): Promise<boolean>
  /** The user an address is bound to, or undefined; binds nothing. */
  addressHolder(address: string): Promise<string | undefined>
  /**
   * Records a card page session (a card payout's `cardSession`) as the user's who opened it. True
   * when it is (now) that user's; false when another user's: the id is never handed over.
   */
  bindCardSession(userId: string, sessionId: string): Promise<boolean>
  /** The user who opened the card page session, or undefined; compared exactly, as ownerOf does. */
  cardSessionHolder(sessionId: string): Promise<string | undefined>
  /**
   * Keeps a wallet challenge until it is taken; drops those expired by `now`, and the user's oldest
   * beyond the last 10 (a user asking in a loop fills nothing).
   */
  recordChallenge(challenge: WalletChallenge, now: Date): Promise<void>
  /** Takes the challenge of this nonce: answered once, then gone, whatever the caller does with it. */
  takeChallenge(nonce: string): Promise<WalletChallenge | undefined>
  /** The crypto deposit recorded for this transaction hash, under whatever provider, or undefined. */
  depositOf(txHash: string): Promise<{ id: string; userId: string } | undefined>
  /** Records the amount of a quote the kit handed to the user (a payout names its quote, not its amount). */
  recordQuote(quote: { id: string; userId: string; amount: string; currency: string }): Promise<void>
  /** The quote as recorded, or undefined (unknown, or older than a day: a payout quote holds two hours). */
  quoteOf(id: string): Promise<{ userId: string; amount: string; currency: string } | undefined>
  /** The user's payments, newest first (default and most: 100). */
  listPayments(userId: string, options?: { limit?: number }): Promise<ListedPayment[]>
  /** The user's payments of a kind created at or after `since`, whatever their status. */
  usage(userId: string, kind: PaymentKind, since: Date): Promise<Usage>
  /**
   * Calls `listener` after each payment this store object records for its user, so that a
   * reconciler in this process looks at it without waiting for its next round. Returns the way to stop.
   */
  onRecorded?(listener: (payment: { kind: PaymentKind; id: string }) => void): () => void
  close(): Promise<void>
}

const DECIMAL = /^\d{1,18}(\.\d{1,18})?$/
// As the widget's accountId and walletId options (src/config/config.ts): a link it would refuse is never signed.
const OPAQUE_ID = /^[\x21-\x7e]{1,128}$/
const isId = (value: unknown): value is string => typeof value === 'string' && OPAQUE_ID.test(value)

export function createPaymentStore(db: Db): PaymentStore {
  const recorded = new Set<(payment: { kind: PaymentKind; id: string }) => void>()
  return {
    db,
    async recordPayment({ kind, id, userId, details, status, amount, currency, createdAt }) {
      if (!id || !userId) throw new TypeError('recordPayment: id and userId are required')
      if (amount !== undefined && !DECIMAL.test(amount)) throw new TypeError('recordPayment: amount must be a decimal string like "25.50"')
      if ((amount === undefined) !== (currency === undefined)) throw new TypeError('recordPayment: amount and currency go together')
      // No conflict target: a crypto deposit's transaction already held under another id (another
      // spelling of the provider) is a conflict too, and this id then stays nobody's (false below).
      if (createdAt !== undefined && !(createdAt instanceof Date && Number.isFinite(createdAt.getTime()))) throw new TypeError('recordPayment: createdAt must be a valid Date')
      await db.query(
        `INSERT INTO ${SCHEMA}.payments (kind, id, user_id, details, status, amount, currency, created_at, next_check_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6::numeric, $7, coalesce($8::timestamptz, now()), coalesce($8::timestamptz, now())) ON CONFLICT DO NOTHING`,
        [kind, id, userId, details === undefined ? null : JSON.stringify(details), status ?? null, amount ?? null, currency ?? null, createdAt?.toISOString() ?? null],
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
      const { rows } = await db.query<{ details: Record<string, unknown> | null }>(`SELECT details FROM ${SCHEMA}.payments WHERE kind = $1 AND id = $2`, [kind, id])
      return rows[0]?.details ?? undefined
    },

    bindAccount(userId, accountId, walletId) {
      if (!userId || !accountId || walletId === '') throw new TypeError('bindAccount: userId and accountId are required, and walletId is not empty')
      return bind(userId, walletId === undefined ? [['account', accountId]] : [['account', accountId], ['wallet', walletId]])
    },

    async rememberBuyer(userId, buyer) {
      const { accountId, walletId, wallet } = buyer ?? {}
      if (!userId || !isId(accountId) || !isId(walletId) || typeof wallet !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) {
        throw new TypeError('rememberBuyer: a userId, accountId and walletId of 1 to 128 printable characters without spaces, and a 0x wallet address are required')
      }
      if (!(await bind(userId, [['account', accountId], ['wallet', walletId]]))) return false
      await db.query(
        `INSERT INTO ${SCHEMA}.buyers (user_id, account_id, wallet_id, wallet) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE SET account_id = EXCLUDED.account_id, wallet_id = EXCLUDED.wallet_id, wallet = EXCLUDED.wallet, remembered_at = now()`,
        [userId, accountId, walletId, wallet],
      )
      return true
    },

    async buyerOf(userId) {
      const { rows } = await db.query<{ account_id: string; wallet_id: string; wallet: string }>(`SELECT account_id, wallet_id, wallet FROM ${SCHEMA}.buyers WHERE user_id = $1`, [userId])
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
      return row && { nonce, userId: row.user_id, address: row.address, chainId: row.chain_id, origin: row.origin, message: row.message, expiresAt: new Date(row.expires_at) }
    },

    async depositOf(txHash) {
      // The expression of the unique index payments_deposit_tx, so that it is used.
      const { rows } = await db.query<{ id: string; user_id: string }>(
        `SELECT id, user_id FROM ${SCHEMA}.payments WHERE kind = 'deposit' AND lower(right(id, 66)) = $1`,
        [txHash.toLowerCase()],
      )
      return rows[0] && { id: rows[0].id, userId: rows[0].user_id }
    },

    async recordQuote({ id, userId, amount, currency }) {
      if (!id || !userId || !DECIMAL.test(amount) || !currency) throw new TypeError('recordQuote: id, userId, a decimal amount and its currency are required')
      await db.query(`DELETE FROM ${SCHEMA}.quotes WHERE created_at < now() - interval '1 day'`)
      await db.query(`INSERT INTO ${SCHEMA}.quotes (id, user_id, amount, currency) VALUES ($1, $2, $3::numeric, $4) ON CONFLICT DO NOTHING`, [id, userId, amount, currency])
    },

    async quoteOf(id) {
      const { rows } = await db.query<{ user_id: string; amount: string; currency: string }>(
        `SELECT user_id, amount::text AS amount, currency FROM ${SCHEMA}.quotes WHERE id = $1 AND created_at >= now() - interval '1 day'`,
        [id],
      )
      return rows[0] && { userId: rows[0].user_id, amount: rows[0].amount, currency: rows[0].currency }
    },

    async listPayments(userId, { limit = 100 } = {}) {
      const { rows } = await db.query<{ kind: PaymentKind; id: string; user_id: string; status: string | null; record: unknown; open: boolean; amount: string | null; currency: string | null; created_at: Date | string }>(
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

    close: () => db.close(),
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
