// One round of looks: every payment due, asked about at the pacer's rate, its answer checked
// against the contract and recorded (a change also goes into the outbox, in the same transaction).
import { claimDuePayments, postpone, recordObservation, releaseLeases, retireStale, type DuePayment } from '../store/lookQueue'
import type { PaymentStore } from '../store/paymentStore'
import { describe } from './deliverDue'
import { finalStatuses, statusSchemas } from './kinds'
import type { Pacer } from './pacer'
import { StatusFetchError, type FetchStatus } from './statusFetcher'

export type LookOptions = {
  db: PaymentStore['db']
  owner: string
  fetchStatus: FetchStatus
  pacer: Pacer
  now(): number
  batchSize: number
  leaseMs: number
  /** After a change, and the first time. */
  pollIntervalMs: number
  /** While nothing changes (or the service fails), each wait doubles up to this. */
  maxPollIntervalMs: number
  followForMs: number
  log(line: string): void
  signal: AbortSignal
}

/** Resolves to the number of payments claimed, and how many of them changed status. */
export async function lookDue(options: LookOptions): Promise<{ claimed: number; changed: number }> {
  const { db, owner, signal } = options
  for (const stale of await retireStale(db, options.followForMs)) {
    options.log(`${stale.kind} ${stale.id} is no longer followed: still ${stale.status ?? 'without a status'} after ${options.followForMs} ms`)
  }
  const due = await claimDuePayments(db, owner, options.batchSize, options.leaseMs)
  let changed = 0
  for (const [index, payment] of due.entries()) {
    await options.pacer.turn(signal)
    if (signal.aborted) {
      await releaseLeases(db, owner, due.slice(index))
      break
    }
    if (await lookAtOne(options, payment)) changed++
  }
  return { claimed: due.length, changed }
}

async function lookAtOne(options: LookOptions, payment: DuePayment): Promise<boolean> {
  const { db, owner, log } = options
  const slower = Math.min(options.maxPollIntervalMs, Math.max(options.pollIntervalMs, payment.intervalMs * 2))
  let answer: unknown
  try {
    answer = await options.fetchStatus(payment.kind, payment.id, payment.details)
  } catch (error) {
    if (error instanceof StatusFetchError && error.retryAfterMs) options.pacer.holdUntil(options.now() + error.retryAfterMs)
    log(`status of ${payment.kind} ${payment.id}: ${describe(error)}; asked again in ${slower} ms`)
    await postpone(db, owner, payment, slower)
    return false
  }
  const parsed = statusSchemas[payment.kind].safeParse(answer)
  if (!parsed.success) {
    log(`status of ${payment.kind} ${payment.id}: the answer does not match the contract (${parsed.error.issues[0]?.message}); asked again in ${slower} ms`)
    await postpone(db, owner, payment, slower)
    return false
  }
  // An answer about another payment (a mixed-up cache or proxy) is not this payment's status.
  const about = answeredFor(parsed.data)
  // (A deposit is named by its transaction's hash, whose case means nothing.)
  const expected = payment.kind === 'deposit' ? payment.id.slice(-66) : payment.id
  if (about !== undefined && (payment.kind === 'deposit' ? about.toLowerCase() !== expected.toLowerCase() : about !== expected)) {
    log(`status of ${payment.kind} ${payment.id}: the answer is about ${about}; asked again in ${slower} ms`)
    await postpone(db, owner, payment, slower)
    return false
  }
  const { status } = parsed.data
  const changed = status !== payment.status
  const recorded = await recordObservation(db, owner, payment, {
    status,
    record: parsed.data,
    final: finalStatuses[payment.kind].includes(status),
    nextIntervalMs: changed ? options.pollIntervalMs : slower,
  })
  return changed && recorded
}

/** The payment an answer names: its id, or a crypto deposit's origin transaction. */
function answeredFor(record: { id?: unknown; txHashes?: { origin?: unknown } }): string | undefined {
  if (typeof record.id === 'string') return record.id
  return typeof record.txHashes?.origin === 'string' ? record.txHashes.origin : undefined
}
