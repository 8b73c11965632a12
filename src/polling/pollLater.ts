import type { PollOptions } from './pollStatus'

/**
 * pollStatus, with query-core fetched only when a flow first follows a status: a flow's first
 * screens do not pay for it. Returns the same kind of stop function, usable at once.
 */
export function pollLater<T>(options: PollOptions<T>): () => void {
  let stop: (() => void) | undefined
  let cancelled = false
  import('./pollStatus').then(
    (m) => {
      if (!cancelled) stop = m.pollStatus(options)
    },
    (error) => !cancelled && options.onError(error),
  )
  return () => {
    cancelled = true
    stop?.()
  }
}
