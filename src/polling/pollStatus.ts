// Status polling as a query-core observer that stops itself on a terminal status. Pausing while
// the page is hidden comes from query-core's focusManager (refetchIntervalInBackground: false).
import { QueryClient, QueryObserver } from '@tanstack/query-core'
import { isRetryable } from '../errors/ApiError'

let shared: QueryClient | undefined

export function queryClient(): QueryClient {
  if (!shared) {
    shared = new QueryClient()
    shared.mount()
  }
  return shared
}

export type PollOptions<T> = {
  key: readonly unknown[]
  fetch: () => Promise<T>
  isTerminal: (data: T) => boolean
  /** A number, or a function of nothing that is asked before each wait (for backoff). */
  intervalMs: number | (() => number)
  /** The first wait after retryable trouble, doubling to 30 s (default 2 s; shorter in sandbox builds). */
  retryBaseMs?: number
  onData: (data: T) => void
  /** A failure that retrying will not mend (a 400, say). */
  onError: (error: unknown) => void
  /** Retryable trouble (5xx, network, malformed answer): the poll goes on, the buyer is told it waits. */
  onRetrying?: (error: unknown) => void
  client?: QueryClient
}

export function pollStatus<T>(options: PollOptions<T>): () => void {
  const client = options.client ?? queryClient()
  const observer = new QueryObserver<T, unknown, T, T, readonly unknown[]>(client, {
    queryKey: options.key,
    queryFn: () => options.fetch(),
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) =>
      query.state.data !== undefined && options.isTerminal(query.state.data)
        ? false
        : typeof options.intervalMs === 'function'
          ? options.intervalMs()
          : options.intervalMs,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: (query) => !(query.state.data !== undefined && options.isTerminal(query.state.data)),
    refetchOnReconnect: false,
    retry: (failures, error) => {
      if (!isRetryable(error)) return false
      options.onRetrying?.(error)
      return true
    },
    retryDelay: (attempt) => Math.min(30_000, (options.retryBaseMs ?? 2_000) * 2 ** attempt),
  })
  let last: T | undefined
  const unsubscribe = observer.subscribe((result) => {
    if (result.data !== undefined && result.data !== last) {
      last = result.data
      options.onData(result.data)
      if (options.isTerminal(result.data)) stop()
    } else if (result.status === 'error') {
      options.onError(result.error)
      stop()
    }
  })
  function stop() {
    unsubscribe()
    observer.destroy()
    client.removeQueries({ queryKey: options.key, exact: true })
  }
  return stop
}
