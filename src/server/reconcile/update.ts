// What the partner's onUpdate receives: one status change of one of its user's payments.
import type { PaymentKind } from '../store/kinds'
import type { StatusRecord } from './kinds'

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
