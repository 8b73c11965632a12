// The follow-status sub-machine's effects (follow.ts is its pure part): one tab holds the lock on
// what is followed, and only that tab polls its status.
import { describeError } from '../errors/describeError'
import { type PollOptions } from '../polling/pollStatus'
import { pollLater } from '../polling/pollLater'
import { type Effect } from './effects'
import type { FollowEvent, Followed } from './follow'
import { holdTabLock } from './tabLock'

/** Holds the tab's lock on `flow:id` and tells the machine who follows. */
export function tabLockEffect(flow: string, id: string, dispatch: (event: FollowEvent) => void): Effect {
  return { key: `tab:${id}`, start: () => holdTabLock(`stablecoin-widget:${flow}:${id}`, (tab) => dispatch({ type: 'ELSEWHERE', tab })) }
}

export type StatusPoll<T> = Pick<PollOptions<T>, 'fetch' | 'isTerminal' | 'intervalMs' | 'onData' | 'retryBaseMs'>

/** Polls a status until it ends: retryable trouble is WAITING, the rest TRACK_ERROR (the buyer retries). */
export function statusEffect<T>(flow: string, id: string, state: Followed, poll: StatusPoll<T>, dispatch: (event: FollowEvent) => void): Effect {
  return {
    key: `status:${id}:${state.attempt}`,
    start: () =>
      pollLater({
        ...poll,
        key: [`${flow}-status`, id],
        onError: (error) => dispatch({ type: 'TRACK_ERROR', problem: describeError(error) }),
        onRetrying: () => dispatch({ type: 'WAITING', waiting: true }),
      }),
  }
}

/** The lock, and (only in the tab that holds it) the status poll. */
export function followEffects<T>(flow: string, id: string, state: Followed, poll: StatusPoll<T>, dispatch: (event: FollowEvent) => void): Effect[] {
  const lock = tabLockEffect(flow, id, dispatch)
  return state.tab === 'held' ? [lock, statusEffect(flow, id, state, poll, dispatch)] : [lock]
}
