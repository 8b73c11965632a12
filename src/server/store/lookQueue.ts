// The payments the reconciler follows, as a queue of looks: claim the payments due for a look (a
// lease, so that one instance asks about each at a time), and record what the service answered. A status change
// and its outbox entry are written in one transaction, fenced by the row's version: of two
// instances that saw the same change, exactly one records it.
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
  intervalMs: number
}

const ms = (param: string) => `(${param}::integer * interval '1 millisecond')`

export async function claimDuePayments(db: Db, owner: string, limit: number, leaseMs: number): Promise<DuePayment[]> {
  const { rows } = await db.query<DuePayment>(
    `WITH due AS (
       SELECT kind, id FROM ${SCHEMA}.payments
       WHERE open AND next_check_at <= now() AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE ${SCHEMA}.payments p SET lease_owner = $2, lease_until = now() + ${ms('$3')}
     FROM due WHERE p.kind = due.kind AND p.id = due.id
     RETURNING p.kind, p.id, p.details, p.status, p.record, p.version, p.interval_ms AS "intervalMs"`,
    [limit, owner, Math.round(leaseMs)],
  )
  return rows
}

/**
 * Stops following payments created longer ago than `followForMs` that never reached a final
 * status (an expired bank deposit, a card state the contract does not name): followed forever,
 * they would take a growing share of the key's rate from the payments still moving.
 */
export async function retireStale(db: Db, followForMs: number): Promise<Array<{ kind: PaymentKind; id: string; status: string | null }>> {
  const { rows } = await db.query<{ kind: PaymentKind; id: string; status: string | null }>(
    `UPDATE ${SCHEMA}.payments SET open = false WHERE open AND created_at < now() - (($1::float8 / 1000) * interval '1 second')
     RETURNING kind, id, status`,
    [followForMs],
  )
  return rows
}

export type Observation = {
  status: string
  record: unknown
  final: boolean
  /** When to look again (ignored once final). */
  nextIntervalMs: number
}

/** Records the answer; false when this instance no longer holds the payment (another one took it over). */
export function recordObservation(db: Db, owner: string, payment: DuePayment, seen: Observation): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE ${SCHEMA}.payments SET status = $3, record = $4::jsonb, open = NOT $5, version = version + 1,
         interval_ms = $6::integer, next_check_at = now() + ${ms('$6')}, lease_owner = NULL, lease_until = NULL
       WHERE kind = $1 AND id = $2 AND version = $7 AND lease_owner = $8 RETURNING 1`,
      [payment.kind, payment.id, seen.status, JSON.stringify(seen.record), seen.final, Math.round(seen.nextIntervalMs), payment.version, owner],
    )
    if (rows.length === 0) return false
    if (seen.status !== payment.status) {
      await tx.query(
        `INSERT INTO ${SCHEMA}.changes (kind, id, status, previous_status, record, previous_record, final)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)`,
        [payment.kind, payment.id, seen.status, payment.status, JSON.stringify(seen.record), payment.record === null ? null : JSON.stringify(payment.record), seen.final],
      )
    }
    return true
  })
}

/** The service could not answer: look again after `retryMs`, and let any instance do it. */
export async function postpone(db: Db, owner: string, payment: DuePayment, retryMs: number): Promise<void> {
  await db.query(
    `UPDATE ${SCHEMA}.payments SET interval_ms = $3::integer, next_check_at = now() + ${ms('$3')}, lease_owner = NULL, lease_until = NULL
     WHERE kind = $1 AND id = $2 AND lease_owner = $4`,
    [payment.kind, payment.id, Math.round(retryMs), owner],
  )
}

/** Hands payments back unasked (this instance is stopping): due again at once, for any instance. */
export async function releaseLeases(db: Db, owner: string, payments: readonly DuePayment[]): Promise<void> {
  for (const { kind, id } of payments) {
    await db.query(`UPDATE ${SCHEMA}.payments SET lease_owner = NULL, lease_until = NULL WHERE kind = $1 AND id = $2 AND lease_owner = $3`, [kind, id, owner])
  }
}
