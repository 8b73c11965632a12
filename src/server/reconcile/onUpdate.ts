// What the partner's onUpdate receives (one status change of one of its user's payments), and the
// round that delivers it: every change due, each to onUpdate, each marked delivered or retried later.
import { describe } from '../describe'
import type { PaymentKind } from '../store/kinds'
import { claimChanges, markDelivered, markFailed, renewLease, type PendingChange } from '../store/outbox'
import type { PaymentStore } from '../store/paymentStore'
import type { StatusRecord } from './status'

export type PaymentUpdate = {
  [K in PaymentKind]: {
    /**
     * The change's own id, the same on every attempt and every instance. A callback that credits
     * money records it in the same transaction: a process that dies after the callback and before
     * the kit marks the change delivered gets the change again on restart.
     */
    changeId: string
    kind: K
    id: string
    userId: string
    status: StatusRecord<K>['status']
    /** The service's status record, checked against the contract's schema. */
    record: StatusRecord<K>
    /** Nothing moves after this status: the payment is no longer followed. */
    final: boolean
    observedAt: Date
  }
}[PaymentKind]

/** The status before the change; `record` is absent when that status came from the creation answer. */
export type PreviousState = { status: string; record?: StatusRecord }

/** Called once per change, in order per payment. A throw (or rejection) is retried later, with backoff. */
export type OnUpdate = (payment: PaymentUpdate, previous: PreviousState | undefined) => unknown

export type DeliverOptions = {
  db: PaymentStore['db']
  owner: string
  onUpdate: OnUpdate
  batchSize: number
  /** Longer than any callback takes: past it, another instance may deliver the change again. */
  leaseMs: number
  retryMs(attempts: number): number
  log(line: string): void
  signal: AbortSignal
}

/** Resolves to the number of changes claimed, and whether a later change of one of them waits. */
export async function deliverDue(options: DeliverOptions): Promise<{ claimed: number; more: boolean }> {
  const { db, owner, onUpdate, log } = options
  const changes = await claimChanges(db, owner, options.batchSize, options.leaseMs)
  for (const [index, change] of changes.entries()) {
    // Once stopping, the changes not begun are left to their lease: another instance, or this one
    // restarted, delivers them.
    if (options.signal.aborted) break
    // The first was claimed a moment ago, with a whole lease.
    if (index > 0 && !(await renewLease(db, owner, change.changeId, options.leaseMs))) continue
    const [payment, previous] = toUpdate(change)
    try {
      await onUpdate(payment, previous)
    } catch (error) {
      const retryMs = options.retryMs(change.attempts)
      log(
        `onUpdate threw for ${change.kind} ${change.id} (change ${change.changeId}, attempt ${change.attempts}); retried in ${retryMs} ms: ${describe(error)}`,
      )
      await markFailed(db, owner, change.changeId, retryMs, describe(error))
      continue
    }
    await markDelivered(db, change.changeId)
  }
  return { claimed: changes.length, more: changes.some((change) => change.more) }
}

function toUpdate(change: PendingChange): [PaymentUpdate, PreviousState | undefined] {
  const payment = {
    changeId: change.changeId,
    kind: change.kind,
    id: change.id,
    userId: change.userId,
    status: change.status,
    record: change.record,
    final: change.final,
    observedAt: change.observedAt,
  } as PaymentUpdate
  if (change.previousStatus === null) return [payment, undefined]
  const previous: PreviousState = { status: change.previousStatus }
  if (change.previousRecord !== null) previous.record = change.previousRecord as PreviousState['record']
  return [payment, previous]
}
