// One round of looks: every payment due, each first look deferred to when the schedule wants it,
// each request at the reconciler's turn of the key's rate, its answer checked against the contract
// and recorded (a change also goes into the outbox, in the same transaction) with the next look.
import { claimDuePayments, postpone, recordObservation, releaseLeases, type DuePayment } from '../store/lookQueue'
import type { PaymentStore } from '../store/paymentStore'
import { describe } from './deliverDue'
import { finalStatuses, statusSchemas } from './kinds'
import { type Schedule, settlementOf } from './nextLook'
import type { Settlements } from './settlements'
import { StatusFetchError, type FetchStatus } from './statusFetcher'

export type LookOptions = {
  db: PaymentStore['db']
  owner: string
  fetchStatus: FetchStatus
  schedule: Schedule
  /** The rails' settlement times, when the schedule reads them. */
  settlements: Settlements | undefined
  /** Resolves when the next request may start (the reconciler's share, beside the handler's). */
  turn(signal: AbortSignal): Promise<void>
  /** The service answered 429. */
  rateLimited(retryAfterMs?: number): void
  now(): number
  batchSize: number
  leaseMs: number
  log(line: string): void
  signal: AbortSignal
}

/** Resolves to the number of payments claimed, and how many of them changed status. */
export async function lookDue(options: LookOptions): Promise<{ claimed: number; changed: number }> {
  const { db, owner, signal } = options
  const due = await claimDuePayments(db, owner, options.batchSize, options.leaseMs, options.now())
  if (options.settlements && due.some((payment) => payment.kind === 'payout' || payment.kind === 'bankDeposit')) await options.settlements.refresh(signal)
  let changed = 0
  for (const [index, payment] of due.entries()) {
    // A payment never asked about, whose status came with its creation: its first look is when the schedule says.
    const firstAt = payment.looks === 0 && payment.status !== null ? payment.createdAt + options.schedule(inputOf(options, payment, payment.createdAt)) : undefined
    if (firstAt !== undefined && firstAt > options.now() && !signal.aborted) {
      await postpone(db, owner, payment, firstAt - options.now(), { now: options.now(), asked: false })
      continue
    }
    if (!signal.aborted) await options.turn(signal)
    if (signal.aborted) {
      await releaseLeases(db, owner, due.slice(index))
      break
    }
    if (await lookAtOne(options, payment)) changed++
  }
  return { claimed: due.length, changed }
}

function inputOf(options: LookOptions, payment: DuePayment, now: number) {
  return {
    kind: payment.kind,
    status: payment.status,
    createdAt: payment.createdAt,
    lastChangeAt: payment.lastChangeAt,
    settlement: settlementOf(payment.kind, payment.record, payment.currency, options.settlements?.current()),
    now,
    unchangedLooks: payment.unchangedLooks,
    looks: payment.looks,
  }
}

async function lookAtOne(options: LookOptions, payment: DuePayment): Promise<boolean> {
  const { db, owner, log } = options
  const now = options.now()
  // Nothing new: a look that saw the same status, or no answer.
  const unchanged = () => options.schedule({ ...inputOf(options, payment, now), unchangedLooks: payment.unchangedLooks + 1, looks: payment.looks + 1 })
  const later = async (why: string) => {
    const wait = unchanged()
    log(`status of ${payment.kind} ${payment.id}: ${why}; asked again in ${wait} ms`)
    await postpone(db, owner, payment, wait, { now, asked: true })
    return false
  }
  let answer: unknown
  try {
    answer = await options.fetchStatus(payment.kind, payment.id, payment.details)
  } catch (error) {
    if (error instanceof StatusFetchError && error.retryAfterMs) options.rateLimited(error.retryAfterMs)
    return later(describe(error))
  }
  const parsed = statusSchemas[payment.kind].safeParse(answer)
  if (!parsed.success) return later(`the answer does not match the contract (${parsed.error.issues[0]?.message})`)
  // An answer about another payment (a mixed-up cache or proxy) is not this payment's status.
  const about = answeredFor(parsed.data)
  // (A deposit is named by its transaction's hash, whose case means nothing.)
  const expected = payment.kind === 'deposit' ? payment.id.slice(-66) : payment.id
  if (about !== undefined && (payment.kind === 'deposit' ? about.toLowerCase() !== expected.toLowerCase() : about !== expected)) {
    return later(`the answer is about ${about}`)
  }
  const { status } = parsed.data
  const changed = status !== payment.status
  const next = changed
    ? options.schedule({
        ...inputOf(options, payment, now),
        status,
        lastChangeAt: now,
        settlement: settlementOf(payment.kind, parsed.data, payment.currency, options.settlements?.current()),
        unchangedLooks: 0,
        looks: payment.looks + 1,
      })
    : options.schedule({
        ...inputOf(options, { ...payment, record: parsed.data }, now),
        unchangedLooks: payment.unchangedLooks + 1,
        looks: payment.looks + 1,
      })
  const recorded = await recordObservation(db, owner, payment, {
    status,
    record: parsed.data,
    final: finalStatuses[payment.kind].includes(status),
    nextIntervalMs: next,
    now,
  })
  return changed && recorded
}

/** The payment an answer names: its id, or a crypto deposit's origin transaction. */
function answeredFor(record: { id?: unknown; txHashes?: { origin?: unknown } }): string | undefined {
  if (typeof record.id === 'string') return record.id
  return typeof record.txHashes?.origin === 'string' ? record.txHashes.origin : undefined
}
