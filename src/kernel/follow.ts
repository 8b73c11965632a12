// The follow-status sub-machine every flow composes once something exists to follow: one tab
// follows it (the others say so and take over later), a status arrives as TRACK, trouble shows as
// WAITING or TRACK_ERROR, and RETRY starts the poll again.
// Its effects (the tab's lock, the status poll) are in followEffects.ts, with the flows' effects.
import type { Problem, Tab } from './types'

/** What every "follow it to the end" state carries. */
export type Followed = { waiting?: boolean; problem?: Problem; attempt: number; tab?: Tab }

export type FollowEvent =
  | { type: 'WAITING'; waiting: boolean }
  | { type: 'TRACK_ERROR'; problem: Problem }
  | { type: 'RETRY' }
  /** Whether this tab follows, or another one does. */
  | { type: 'ELSEWHERE'; tab: Tab }

const FOLLOW_EVENTS = new Set(['WAITING', 'TRACK_ERROR', 'RETRY', 'ELSEWHERE'])

export function isFollowEvent(event: { type: string }): event is FollowEvent {
  return FOLLOW_EVENTS.has(event.type)
}

/** The shared part of following: a waiting hint, an error to show, a retry that restarts, the tab. */
export function follow<S extends Followed>(state: S, event: FollowEvent): S {
  switch (event.type) {
    case 'WAITING':
      return !!state.waiting === event.waiting ? state : { ...state, waiting: event.waiting }
    case 'TRACK_ERROR':
      return { ...state, problem: event.problem, waiting: false }
    case 'RETRY':
      return state.problem ? { ...state, problem: undefined, attempt: state.attempt + 1 } : state
    case 'ELSEWHERE':
      return state.tab === event.tab ? state : { ...state, tab: event.tab }
  }
}

/** What a status arrival does to a followed state that has not ended: no more waiting, no problem. */
export function tracked<S extends Followed>(state: S): S {
  return state.waiting || state.problem ? { ...state, waiting: false, problem: undefined } : state
}
