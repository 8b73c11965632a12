// The payments the reconciler follows, as a queue of looks: claim the payments due for a look (a
// lease, so that one instance asks about each at a time), and record what the service answered.
// A status change and its outbox entry are written in one transaction, fenced by the row's
// version: of two instances that saw the same change, exactly one records it.
//
// Two clocks, each for what it is good at. When a payment is due, when its status changed and when
// a change was observed are the kit's clock's (`now`, passed in), so that a simulated clock drives
// the schedule in tests and in the bench. Leases stay on the database's now(): the one clock every
// instance shares, so that a lease lasts as long for each of them whatever their servers' clocks say.
import type { PaymentKind } from './kinds'
import { SCHEMA } from './migrations'
import type { Db } from './sql'

export type DuePayment = {
  kind: PaymentKind
  id: string
  details: unknown
  status: string | null
  record: unknown
  version: number
  /** The wait before this look. */
  intervalMs: number
  /** When it is due, on the kit's clock. */
  dueAt: number
  /** As recorded with the payment (a payout's quote, a bank deposit's), for its rail's settlement time. */
  currency: string | null
  createdAt: number
  /** When the status last changed (createdAt while it has not). */
  lastChangeAt: number
  /** Looks so far (asked, whatever the answer), and those since the last change. */
  looks: number
  unchangedLooks: number
}

type DueRow = Omit<DuePayment, 'createdAt' | 'lastChangeAt' | 'dueAt'> & { createdAt: Date | string; lastChangeAt: Date | string; dueAt: Date | string }

const ms = (param: string) => `(${param}::integer * interval '1 millisecond')`
const at = (time: number) => new Date(time).toISOString()

/** Claims the payments due by `now` (the reconciler passes a moment ahead: the looks of its next seconds), oldest due first. */
export async function claimDuePayments(db: Db, owner: string, limit: number, leaseMs: number, now = Date.now()): Promise<DuePayment[]> {
  return (await claimLooks(db, owner, limit, leaseMs, now)).payments
}

/** claimDuePayments, and when the first payment it left is due (undefined: none is open), in one statement. */
export async function claimLooks(
  db: Db,
  owner: string,
  limit: number,
  leaseMs: number,
  now: number,
): Promise<{ payments: DuePayment[]; restDueAt: number | undefined }> {
  const { rows } = await db.query<DueRow & { restDueAt: Date | string | null }>(
    `WITH due AS (
       SELECT kind, id FROM ${SCHEMA}.payments
       WHERE open AND next_check_at <= $4::timestamptz AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_check_at, created_at, kind, id LIMIT $1 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE ${SCHEMA}.payments p SET lease_owner = $2, lease_until = now() + ${ms('$3')}
       FROM due WHERE p.kind = due.kind AND p.id = due.id
       RETURNING p.kind, p.id, p.details, p.status, p.record, p.version, p.interval_ms AS "intervalMs", p.currency,
         p.created_at AS "createdAt", coalesce(p.last_change_at, p.created_at) AS "lastChangeAt", p.looks, p.unchanged_looks AS "unchangedLooks",
         p.next_check_at AS "dueAt")
     SELECT claimed.*, (
         -- In the order of the index payments_due: it stops at the first one not claimed.
         SELECT q.next_check_at FROM ${SCHEMA}.payments q
         WHERE q.open AND NOT EXISTS (SELECT 1 FROM due WHERE due.kind = q.kind AND due.id = q.id)
         ORDER BY q.next_check_at LIMIT 1) AS "restDueAt"
     FROM (SELECT 1) one LEFT JOIN claimed ON true`,
    [limit, owner, Math.round(leaseMs), at(now)],
  )
  const restDueAt = rows[0]?.restDueAt ? new Date(rows[0].restDueAt).getTime() : undefined
  // Oldest due first (UPDATE … RETURNING loses the claim's order).
  const payments = rows
    .filter((row) => row.kind !== null)
    .map(({ restDueAt: _, ...row }) => ({
      ...row,
      createdAt: new Date(row.createdAt).getTime(),
      lastChangeAt: new Date(row.lastChangeAt).getTime(),
      dueAt: new Date(row.dueAt).getTime(),
    }))
    .sort((a, b) => a.dueAt - b.dueAt)
  return { payments, restDueAt }
}

/** When the next open payment is due, on the kit's clock; undefined when none is open. */
export async function nextDueAt(db: Db): Promise<number | undefined> {
  const { rows } = await db.query<{ at: Date | string | null }>(`SELECT min(next_check_at) AS at FROM ${SCHEMA}.payments WHERE open`)
  return rows[0]?.at ? new Date(rows[0].at).getTime() : undefined
}

/**
 * Stops following payments created longer ago than `followForMs` that never reached a final
 * status (an expired bank deposit, a card state the contract does not name): followed forever,
 * they would take a growing share of the key's rate from the payments still moving.
 */
export async function retireStale(db: Db, followForMs: number, now = Date.now()): Promise<Array<{ kind: PaymentKind; id: string; status: string | null }>> {
  const { rows } = await db.query<{ kind: PaymentKind; id: string; status: string | null }>(
    `UPDATE ${SCHEMA}.payments SET open = false WHERE open AND created_at < $2::timestamptz - (($1::float8 / 1000) * interval '1 second')
     RETURNING kind, id, status`,
    [followForMs, at(now)],
  )
  return rows
}

export type Observation = {
  status: string
  record: unknown
  final: boolean
  /** When to look again, after `now` (ignored once final). */
  nextIntervalMs: number
  /** The look's moment on the kit's clock (default: Date.now()). */
  now?: number
}

/**
 * Records the answer; false when this instance no longer holds the payment (another one took it
 * over). One statement: the payment's row and, when the status changed, its outbox entry.
 */
export async function recordObservation(db: Db, owner: string, payment: DuePayment, seen: Observation): Promise<boolean> {
  const { rows } = await db.query<{ recorded: number }>(
    `WITH updated AS (
       UPDATE ${SCHEMA}.payments SET status = $3, record = $4::jsonb, open = NOT $5, version = version + 1,
         interval_ms = $6::integer, next_check_at = $9::timestamptz + ${ms('$6')}, lease_owner = NULL, lease_until = NULL,
         looks = looks + 1,
         last_change_at = CASE WHEN status IS DISTINCT FROM $3 THEN $9::timestamptz ELSE last_change_at END,
         unchanged_looks = CASE WHEN status IS DISTINCT FROM $3 THEN 0 ELSE unchanged_looks + 1 END
       WHERE kind = $1 AND id = $2 AND version = $7 AND lease_owner = $8 RETURNING 1),
     change AS (
       INSERT INTO ${SCHEMA}.changes (kind, id, status, previous_status, record, previous_record, final, observed_at)
       SELECT $1, $2, $3, $10::text, $4::jsonb, $11::jsonb, $5, $9::timestamptz FROM updated WHERE $12::boolean
       RETURNING 1)
     SELECT (SELECT count(*) FROM updated)::integer AS recorded`,
    [
      payment.kind,
      payment.id,
      seen.status,
      JSON.stringify(seen.record),
      seen.final,
      Math.round(seen.nextIntervalMs),
      payment.version,
      owner,
      at(seen.now ?? Date.now()),
      payment.status,
      payment.record === null ? null : JSON.stringify(payment.record),
      seen.status !== payment.status,
    ],
  )
  return rows[0]?.recorded === 1
}

/**
 * Look again after `waitMs`, and let any instance do it: the service could not answer (`asked`:
 * a look that saw nothing new), or the schedule says the first look is later (not asked).
 */
export async function postpone(
  db: Db,
  owner: string,
  payment: DuePayment,
  waitMs: number,
  { now = Date.now(), asked = true }: { now?: number; asked?: boolean } = {},
): Promise<void> {
  await db.query(
    `UPDATE ${SCHEMA}.payments SET interval_ms = $3::integer, next_check_at = $5::timestamptz + ${ms('$3')}, lease_owner = NULL, lease_until = NULL,
       looks = looks + $6::integer, unchanged_looks = unchanged_looks + $6::integer
     WHERE kind = $1 AND id = $2 AND lease_owner = $4`,
    [payment.kind, payment.id, Math.round(waitMs), owner, at(now), asked ? 1 : 0],
  )
}

/** Hands payments back unasked (this instance is stopping, or starts a new round): due as they were, for any instance. */
export async function releaseLeases(db: Db, owner: string, payments: ReadonlyArray<Pick<DuePayment, 'kind' | 'id'>>): Promise<void> {
  if (payments.length === 0) return
  await db.query(
    `UPDATE ${SCHEMA}.payments SET lease_owner = NULL, lease_until = NULL
     WHERE lease_owner = $1 AND (kind, id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [owner, payments.map((p) => p.kind), payments.map((p) => p.id)],
  )
}
