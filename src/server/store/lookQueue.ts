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
  /** As recorded with the payment (a payout's quote, a bank deposit's), for its rail's settlement time. */
  currency: string | null
  createdAt: number
  /** When the status last changed (createdAt while it has not). */
  lastChangeAt: number
  /** Looks so far (asked, whatever the answer), and those since the last change. */
  looks: number
  unchangedLooks: number
}

type DueRow = Omit<DuePayment, 'createdAt' | 'lastChangeAt'> & { createdAt: Date | string; lastChangeAt: Date | string }

const ms = (param: string) => `(${param}::integer * interval '1 millisecond')`
const at = (time: number) => new Date(time).toISOString()

export async function claimDuePayments(db: Db, owner: string, limit: number, leaseMs: number, now = Date.now()): Promise<DuePayment[]> {
  const { rows } = await db.query<DueRow>(
    `WITH due AS (
       SELECT kind, id FROM ${SCHEMA}.payments
       WHERE open AND next_check_at <= $4::timestamptz AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_check_at, created_at, kind, id LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE ${SCHEMA}.payments p SET lease_owner = $2, lease_until = now() + ${ms('$3')}
     FROM due WHERE p.kind = due.kind AND p.id = due.id
     RETURNING p.kind, p.id, p.details, p.status, p.record, p.version, p.interval_ms AS "intervalMs", p.currency,
       p.created_at AS "createdAt", coalesce(p.last_change_at, p.created_at) AS "lastChangeAt", p.looks, p.unchanged_looks AS "unchangedLooks",
       p.next_check_at AS "dueAt"`,
    [limit, owner, Math.round(leaseMs), at(now)],
  )
  // Oldest due first (UPDATE … RETURNING loses the claim's order).
  return (rows as Array<DueRow & { dueAt: Date | string }>)
    .sort((a, b) => new Date(a.dueAt).getTime() - new Date(b.dueAt).getTime())
    .map(({ dueAt: _, ...row }) => ({ ...row, createdAt: new Date(row.createdAt).getTime(), lastChangeAt: new Date(row.lastChangeAt).getTime() }))
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

/** Records the answer; false when this instance no longer holds the payment (another one took it over). */
export function recordObservation(db: Db, owner: string, payment: DuePayment, seen: Observation): Promise<boolean> {
  const now = at(seen.now ?? Date.now())
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE ${SCHEMA}.payments SET status = $3, record = $4::jsonb, open = NOT $5, version = version + 1,
         interval_ms = $6::integer, next_check_at = $9::timestamptz + ${ms('$6')}, lease_owner = NULL, lease_until = NULL,
         looks = looks + 1,
         last_change_at = CASE WHEN status IS DISTINCT FROM $3 THEN $9::timestamptz ELSE last_change_at END,
         unchanged_looks = CASE WHEN status IS DISTINCT FROM $3 THEN 0 ELSE unchanged_looks + 1 END
       WHERE kind = $1 AND id = $2 AND version = $7 AND lease_owner = $8 RETURNING 1`,
      [payment.kind, payment.id, seen.status, JSON.stringify(seen.record), seen.final, Math.round(seen.nextIntervalMs), payment.version, owner, now],
    )
    if (rows.length === 0) return false
    if (seen.status !== payment.status) {
      await tx.query(
        `INSERT INTO ${SCHEMA}.changes (kind, id, status, previous_status, record, previous_record, final, observed_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8::timestamptz)`,
        [payment.kind, payment.id, seen.status, payment.status, JSON.stringify(seen.record), payment.record === null ? null : JSON.stringify(payment.record), seen.final, now],
      )
    }
    return true
  })
}

/**
 * Look again after `waitMs`, and let any instance do it: the service could not answer (`asked`:
 * a look that saw nothing new), or the schedule says the first look is later (not asked).
 */
export async function postpone(db: Db, owner: string, payment: DuePayment, waitMs: number, { now = Date.now(), asked = true }: { now?: number; asked?: boolean } = {}): Promise<void> {
  await db.query(
    `UPDATE ${SCHEMA}.payments SET interval_ms = $3::integer, next_check_at = $5::timestamptz + ${ms('$3')}, lease_owner = NULL, lease_until = NULL,
       looks = looks + $6::integer, unchanged_looks = unchanged_looks + $6::integer
     WHERE kind = $1 AND id = $2 AND lease_owner = $4`,
    [payment.kind, payment.id, Math.round(waitMs), owner, at(now), asked ? 1 : 0],
  )
}

/** Hands payments back unasked (this instance is stopping): due again at once, for any instance. */
export async function releaseLeases(db: Db, owner: string, payments: readonly DuePayment[]): Promise<void> {
  for (const { kind, id } of payments) {
    await db.query(`UPDATE ${SCHEMA}.payments SET lease_owner = NULL, lease_until = NULL WHERE kind = $1 AND id = $2 AND lease_owner = $3`, [kind, id, owner])
  }
}
