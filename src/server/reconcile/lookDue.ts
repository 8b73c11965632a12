// One round of looks: the payments due in the next seconds, each at its moment (a first look when
// the schedule wants it), each request at the reconciler's turn of the key's rate, its answer
// checked against the contract and recorded with the next look (a change also goes into the
// outbox, in the same statement).
import { claimLooks, postpone, recordObservation, releaseLeases, type DuePayment } from '../store/lookQueue'
import type { PaymentStore } from '../store/paymentStore'
import { describe } from '../describe'
import { type Schedule, settlementOf } from './nextLook'
import type { Settlements } from './settlements'
import { StatusFetchError, type FetchStatus, finalStatuses, statusSchemas } from './status'

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
  sleep(ms: number, signal: AbortSignal): Promise<void>
  batchSize: number
  leaseMs: number
  /** A round claims the payments due within this much ahead, and looks at each at its moment. */
  aheadMs: number
  log(line: string): void
  /** Stops the round: the payments not looked at yet are handed back. */
  signal: AbortSignal
  /** Ends a wait for a payment's moment: a payment was recorded, whose first look may come sooner. */
  interrupt?: AbortSignal
}

export type LookRound = {
  claimed: number
  /** How many changed status. */
  changed: number
  /** The earliest next look this round set, on the kit's clock. */
  nextAt: number
  /** It handed payments back (interrupted, or a look came due before the rest): a new round at once. */
  again: boolean
  /** When the first payment this round did not claim is due. */
  restDueAt: number | undefined
}

/** Claims the payments due within `aheadMs`, and looks at each at its moment, oldest first. */
export async function lookDue(options: LookOptions): Promise<LookRound> {
  const { db, owner, signal } = options
  const { payments: due, restDueAt } = await claimLooks(db, owner, options.batchSize, options.leaseMs, options.now() + options.aheadMs)
  if (options.settlements && due.some((payment) => payment.kind === 'payout' || payment.kind === 'bankDeposit')) await options.settlements.refresh(signal)
  // Each one's moment: when due, or, never asked with its status known from its creation, when the
  // schedule wants the first look.
  const plan = due
    .map((payment) => {
      const first =
        payment.looks === 0 && payment.status !== null ? payment.createdAt + options.schedule(inputOf(options, payment, payment.createdAt)) : -Infinity
      return { payment, at: Math.max(payment.dueAt, first) }
    })
    .sort((a, b) => a.at - b.at)
  let changed = 0
  let nextAt = Infinity
  let again = false
  for (const [index, { payment, at }] of plan.entries()) {
    // A look of this round set a next one before this moment (a payment that just changed): a new
    // round takes them in order.
    if (nextAt < at) {
      await releaseLeases(
        db,
        owner,
        plan.slice(index).map((step) => step.payment),
      )
      again = true
      break
    }
    if (at > options.now() + options.aheadMs && !signal.aborted) {
      await postpone(db, owner, payment, at - options.now(), { now: options.now(), asked: false })
      nextAt = Math.min(nextAt, at)
      continue
    }
    if (at > options.now() && !signal.aborted && !options.interrupt?.aborted) {
      await options.sleep(at - options.now(), options.interrupt ? AbortSignal.any([signal, options.interrupt]) : signal)
    }
    // Interrupted, the payments whose moment has come are still looked at; the others go back.
    // (Not the turn: payments recorded faster than the rate must not keep the reconciler from it.)
    const handBack = signal.aborted || (options.interrupt?.aborted && at > options.now())
    if (!handBack) await options.turn(signal)
    if (handBack || signal.aborted) {
      await releaseLeases(
        db,
        owner,
        plan.slice(index).map((step) => step.payment),
      )
      nextAt = Math.min(nextAt, at)
      again = true
      break
    }
    const looked = await lookAtOne(options, payment)
    if (looked.changed) changed++
    nextAt = Math.min(nextAt, looked.nextAt)
  }
  return { claimed: due.length, changed, nextAt, again, restDueAt }
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

/** Asks the service about one payment and records the answer; when it looks next. */
async function lookAtOne(options: LookOptions, payment: DuePayment): Promise<{ changed: boolean; nextAt: number }> {
  const { db, owner, log } = options
  const now = options.now()
  // Nothing new: a look that saw the same status, or no answer.
  const unchanged = () => options.schedule({ ...inputOf(options, payment, now), unchangedLooks: payment.unchangedLooks + 1, looks: payment.looks + 1 })
  const later = async (why: string) => {
    const wait = unchanged()
    log(`status of ${payment.kind} ${payment.id}: ${why}; asked again in ${wait} ms`)
    await postpone(db, owner, payment, wait, { now, asked: true })
    return { changed: false, nextAt: now + wait }
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
  return { changed: changed && recorded, nextAt: now + next }
}

/** The payment an answer names: its id, or a crypto deposit's origin transaction. */
function answeredFor(record: { id?: unknown; txHashes?: { origin?: unknown } }): string | undefined {
  if (typeof record.id === 'string') return record.id
  return typeof record.txHashes?.origin === 'string' ? record.txHashes.origin : undefined
}
