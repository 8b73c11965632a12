// The reconciler's side of the outbox: claim the changes due for delivery (leased, so that one
// instance delivers each at a time), then mark each delivered, or failed with its next attempt.
// A payment's changes go out in order: one is claimable only once every earlier one is delivered.
import type { PaymentKind } from './kinds'
import { SCHEMA } from './migrations'
import type { Db } from './sql'

export type PendingChange = {
  changeId: string
  kind: PaymentKind
  id: string
  userId: string
  status: string
  record: unknown
  previousStatus: string | null
  previousRecord: unknown
  final: boolean
  observedAt: Date
  attempts: number
  /** A later change of the same payment waits for this one. */
  more: boolean
}

const ms = (param: string) => `(${param}::integer * interval '1 millisecond')`

export async function claimChanges(db: Db, owner: string, limit: number, leaseMs: number): Promise<PendingChange[]> {
  const { rows } = await db.query<PendingChange>(
    `WITH due AS (
       SELECT c.seq FROM ${SCHEMA}.changes c
       WHERE c.delivered_at IS NULL AND c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until < now())
         AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.changes e WHERE e.kind = c.kind AND e.id = c.id AND e.delivered_at IS NULL AND e.seq < c.seq)
       ORDER BY c.seq LIMIT $1 FOR UPDATE OF c SKIP LOCKED)
     UPDATE ${SCHEMA}.changes c SET lease_owner = $2, lease_until = now() + ${ms('$3')}, attempts = c.attempts + 1
     FROM due, ${SCHEMA}.payments p
     WHERE c.seq = due.seq AND p.kind = c.kind AND p.id = c.id
     RETURNING c.seq::text AS "changeId", c.kind, c.id, p.user_id AS "userId", c.status, c.record,
       c.previous_status AS "previousStatus", c.previous_record AS "previousRecord", c.final, c.observed_at AS "observedAt", c.attempts,
       EXISTS (SELECT 1 FROM ${SCHEMA}.changes l WHERE l.kind = c.kind AND l.id = c.id AND l.delivered_at IS NULL AND l.seq > c.seq) AS more`,
    [limit, owner, Math.round(leaseMs)],
  )
  // The claim's order is lost in UPDATE … RETURNING.
  return rows.sort((a, b) => Number(a.changeId) - Number(b.changeId))
}

/**
 * Extends the lease just before a delivery: a change claimed early in a batch of slow callbacks
 * would otherwise reach its turn with its lease run out. False when another instance took it.
 */
export async function renewLease(db: Db, owner: string, changeId: string, leaseMs: number): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE ${SCHEMA}.changes SET lease_until = now() + ${ms('$3')} WHERE seq = $1::bigint AND lease_owner = $2 AND delivered_at IS NULL RETURNING 1`,
    [changeId, owner, Math.round(leaseMs)],
  )
  return rows.length === 1
}

export async function markDelivered(db: Db, changeId: string): Promise<void> {
  await db.query(`UPDATE ${SCHEMA}.changes SET delivered_at = now(), lease_owner = NULL, lease_until = NULL, last_error = NULL WHERE seq = $1::bigint`, [
    changeId,
  ])
}

export async function markFailed(db: Db, owner: string, changeId: string, retryMs: number, error: string): Promise<void> {
  await db.query(
    `UPDATE ${SCHEMA}.changes SET next_attempt_at = now() + ${ms('$3')}, last_error = $4, lease_owner = NULL, lease_until = NULL
     WHERE seq = $1::bigint AND lease_owner = $2 AND delivered_at IS NULL`,
    [changeId, owner, Math.round(retryMs), error.slice(0, 1000)],
  )
}
