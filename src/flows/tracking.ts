import type { Problem } from './deposit/machine'

/** What every "follow it to the end" state carries: a waiting hint, a problem, a retry count. */
export type Followed = { waiting?: boolean; problem?: Problem; attempt: number }

export type FollowEvent =
  | { type: 'WAITING'; waiting: boolean }
  | { type: 'TRACK_ERROR'; problem: Problem }
  | { type: 'RETRY_TRACK' }

/** The shared part of following a status: waiting, an error to show, a retry that restarts. */
export function follow<S extends Followed>(state: S, event: FollowEvent): S {
  switch (event.type) {
    case 'WAITING':
      return !!state.waiting === event.waiting ? state : { ...state, waiting: event.waiting }
    case 'TRACK_ERROR':
      return { ...state, problem: event.problem, waiting: false }
    case 'RETRY_TRACK':
      return state.problem ? { ...state, problem: undefined, attempt: state.attempt + 1 } : state
  }
}

export function isFollowEvent(event: { type: string }): event is FollowEvent {
  return event.type === 'WAITING' || event.type === 'TRACK_ERROR' || event.type === 'RETRY_TRACK'
}
