// The deposit once sent: followed on its chain and then by the service to its end (kernel/follow.ts
// for the status poll's events), and what the partner's kit answered about it. Pure.
import { follow, isFollowEvent } from '../../kernel/follow'
import type { DepositEvent, DepositState, Session, Tracking } from './state'

/** Following a sent deposit: from its hash, or from its batch's id until the wallet tells the hash. */
export function tracked(tracking: Tracking, session?: Session): DepositState {
  return { tag: 'tracking', tracking, phase: tracking.txHash ? 'confirming' : tracking.watch ? 'watching' : 'batching', attempt: 0, session }
}

/** What the partner's kit answered for a sent deposit's hash (report.ts): its id, or its refusal to record it. */
export function kitAnswer(state: DepositState, event: Extract<DepositEvent, { type: 'REPORTED' | 'UNRECORDED' }>): DepositState {
  const told = (state.tag === 'tracking' || state.tag === 'result') && state.tracking.txHash === event.txHash
  if (!told) return state
  const tracking =
    event.type === 'REPORTED' ? { ...state.tracking, kit: { txHash: event.txHash, id: event.id } } : { ...state.tracking, unrecorded: event.txHash }
  return { ...state, tracking }
}

type TrackingState = Extract<DepositState, { tag: 'tracking' }>

export function trackingTransition(state: TrackingState, event: DepositEvent): DepositState {
  switch (event.type) {
    case 'RECEIPT':
      if (state.phase !== 'confirming') return state
      return event.success
        ? { ...state, phase: 'delivering', problem: undefined, missing: false }
        : { tag: 'result', outcome: 'reverted', tracking: state.tracking, session: state.session }
    case 'MISSING':
      return state.phase !== 'confirming' || !!state.missing === event.missing ? state : { ...state, missing: event.missing }
    case 'STOP_FOLLOWING':
      // Only for a transaction the chain cannot find: the buyer checked the wallet and gives up on it.
      if (state.missing) return { tag: 'result', outcome: 'dropped', tracking: state.tracking, session: state.session }
      // Or one on a chain nothing here can read: we stop following, without saying how it ended.
      if (state.unreadable) return { tag: 'result', outcome: 'unfollowed', tracking: state.tracking, session: state.session }
      return state
    case 'UNREADABLE':
      return state.unreadable ? state : { ...state, unreadable: true, waiting: false }
    case 'BATCHED':
      if (state.phase !== 'batching') return state
      return {
        ...state,
        phase: 'confirming',
        tracking: { ...state.tracking, txHash: event.txHash, approvalHash: event.approvalHash ?? state.tracking.approvalHash },
      }
    case 'BATCH_FAILED':
      return state.phase === 'batching' ? { tag: 'result', outcome: event.outcome, tracking: state.tracking, session: state.session } : state
    case 'REPLACED':
      if (state.phase !== 'confirming') return state
      if (event.reason === 'repriced') {
        return { ...state, tracking: { ...state.tracking, txHash: event.txHash }, replaced: true }
      }
      return { tag: 'result', outcome: 'cancelled', tracking: state.tracking, session: state.session }
    case 'TRACK': {
      if (state.phase !== 'delivering') return state
      const tracking = {
        ...state.tracking,
        originHash: event.origin ?? state.tracking.originHash,
        deliveredHash: event.delivered ?? state.tracking.deliveredHash,
      }
      if (event.status === 'pending') return { ...state, tracking, waiting: false, problem: undefined }
      return { tag: 'result', outcome: event.status, tracking, session: state.session }
    }
    default:
      return isFollowEvent(event) ? follow(state, event) : state
  }
}
