// The kit's tables, in a schema of their own so that they sit in the partner's database beside its
// tables without clashing. Applied in order, each once; several instances starting together wait
// on one advisory lock, so exactly one applies a migration and the others see it done.
import type { Db } from './sql'

export const SCHEMA = 'stablecoin_widget'

// Append only: a published migration is never edited, a change is a new entry.
const MIGRATIONS: ReadonlyArray<readonly string[]> = [
  [
    `CREATE TABLE ${SCHEMA}.payments (
      kind text NOT NULL,
      id text NOT NULL,
      user_id text NOT NULL,
      details jsonb,
      amount numeric,
      currency text,
      created_at timestamptz NOT NULL DEFAULT now(),
      status text,
      record jsonb,
      version integer NOT NULL DEFAULT 0,
      open boolean NOT NULL DEFAULT true,
      interval_ms integer NOT NULL DEFAULT 0,
      next_check_at timestamptz NOT NULL DEFAULT now(),
      lease_owner text,
      lease_until timestamptz,
      PRIMARY KEY (kind, id)
    )`,
    `CREATE INDEX payments_due ON ${SCHEMA}.payments (next_check_at) WHERE open`,
    `CREATE INDEX payments_usage ON ${SCHEMA}.payments (user_id, kind, created_at)`,
    // One row per bound value ('account' or 'wallet'): the primary key is what makes a bind atomic.
    `CREATE TABLE ${SCHEMA}.bindings (
      what text NOT NULL,
      value text NOT NULL,
      user_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (what, value)
    )`,
    // The outbox: a change is written in the transaction that observes it, and delivered after.
    `CREATE TABLE ${SCHEMA}.changes (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      kind text NOT NULL,
      id text NOT NULL,
      status text NOT NULL,
      previous_status text,
      record jsonb NOT NULL,
      previous_record jsonb,
      final boolean NOT NULL,
      observed_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      lease_owner text,
      lease_until timestamptz,
      FOREIGN KEY (kind, id) REFERENCES ${SCHEMA}.payments (kind, id)
    )`,
    `CREATE INDEX changes_undelivered ON ${SCHEMA}.changes (kind, id, seq) WHERE delivered_at IS NULL`,
  ],
  [
    // One transaction is one crypto deposit, whatever provider a browser names with it: the id is
    // `provider:txHash`, and two providers for one hash would follow (and credit) it twice.
    `CREATE UNIQUE INDEX payments_deposit_tx ON ${SCHEMA}.payments (lower(right(id, 66))) WHERE kind = 'deposit'`,
    `CREATE INDEX payments_by_user ON ${SCHEMA}.payments (user_id, created_at DESC)`,
    // The payout quotes the kit handed to each user: a payout names its quote, not its amount.
    `CREATE TABLE ${SCHEMA}.quotes (
      id text PRIMARY KEY,
      user_id text NOT NULL,
      amount numeric NOT NULL,
      currency text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  [
    // The messages the kit asked a user to sign with a wallet (POST /deposit/wallet), by nonce:
    // each is taken once, whatever its answer, and none outlives its expiry by more than a new ask.
    `CREATE TABLE ${SCHEMA}.wallet_challenges (
      nonce text PRIMARY KEY,
      user_id text NOT NULL,
      address text NOT NULL,
      chain_id integer NOT NULL,
      origin text NOT NULL,
      message text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX wallet_challenges_user ON ${SCHEMA}.wallet_challenges (user_id, created_at)`,
  ],
  [
    // Each user's verified account, as the partner's server kept it (rememberBuyer): what a link
    // signs for a returning buyer on a new device. Its ids are bound to the user in bindings.
    `CREATE TABLE ${SCHEMA}.buyers (
      user_id text PRIMARY KEY,
      account_id text NOT NULL,
      wallet_id text NOT NULL,
      wallet text NOT NULL,
      remembered_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  [
    // The reconciler's schedule (issue 37): when the status last changed, on the kit's clock (null:
    // not since creation), and how many looks were spent on the payment, in all and since that change.
    `ALTER TABLE ${SCHEMA}.payments ADD COLUMN last_change_at timestamptz`,
    `ALTER TABLE ${SCHEMA}.payments ADD COLUMN looks integer NOT NULL DEFAULT 0`,
    `ALTER TABLE ${SCHEMA}.payments ADD COLUMN unchanged_looks integer NOT NULL DEFAULT 0`,
    // Each answer recorded so far was a look.
    `UPDATE ${SCHEMA}.payments SET looks = version`,
  ],
  [
    // The deposit addresses the kit asked the service for, each for one user (POST /deposit/address):
    // a crypto deposit paid by address (from an exchange) is that user's by this record, whoever
    // sent it. An address is one user's only; the block read before it was given bounds what it takes.
    `CREATE TABLE ${SCHEMA}.deposit_addresses (
      chain_id integer NOT NULL,
      address text NOT NULL,
      user_id text NOT NULL,
      token text NOT NULL,
      units numeric NOT NULL,
      from_block numeric NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (chain_id, address)
    )`,
    `CREATE INDEX deposit_addresses_user ON ${SCHEMA}.deposit_addresses (user_id, created_at)`,
  ],
  [
    // A chain id is any the chains option takes, beyond 2^31 too (Palm is 11297108109).
    `ALTER TABLE ${SCHEMA}.deposit_addresses ALTER COLUMN chain_id TYPE bigint`,
    // Every token and amount the holder was quoted into the address ('token:units', the latest 20):
    // the service handing it again for another amount leaves the first one shown counting too.
    `ALTER TABLE ${SCHEMA}.deposit_addresses ADD COLUMN quoted text[] NOT NULL DEFAULT '{}'`,
    `UPDATE ${SCHEMA}.deposit_addresses SET quoted = ARRAY[token || ':' || units::text]`,
  ],
  [
    // Every address handed out first deletes those older than 30 days (depositAddresses.ts): by
    // this index, not by reading the whole table on every ask.
    `CREATE INDEX deposit_addresses_created ON ${SCHEMA}.deposit_addresses (created_at)`,
  ],
]

/** An arbitrary constant that names the kit's migration lock among the partner's advisory locks. */
const LOCK = 5_320_241_125

export async function migrate(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${LOCK})`)
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`)
    await tx.query(`CREATE TABLE IF NOT EXISTS ${SCHEMA}.migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
    const { rows } = await tx.query<{ version: number }>(`SELECT version FROM ${SCHEMA}.migrations`)
    const applied = new Set(rows.map((row) => row.version))
    for (const [index, statements] of MIGRATIONS.entries()) {
      const version = index + 1
      if (applied.has(version)) continue
      for (const statement of statements) await tx.query(statement)
      await tx.query(`INSERT INTO ${SCHEMA}.migrations (version) VALUES ($1)`, [version])
    }
  })
}
