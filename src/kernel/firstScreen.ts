// What a flow fetches after its first screen: the checks of its stored records and the schemas of
// its answers (zod with both, issue 19). Without a stored record the first screen shows at once;
// with one, the flow resumes from it, so its checks come first (the flow says it is loading).
import { useEffect, useState } from 'preact/hooks'
import type { LazyPart } from './lazyPart'

/** Runs once the browser is idle (soon after the first screen is up); returns a cancel. */
export function whenIdle(run: () => void): () => void {
  const idle = globalThis as { requestIdleCallback?: (run: () => void, options: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void }
  if (idle.requestIdleCallback && idle.cancelIdleCallback) {
    const id = idle.requestIdleCallback(run, { timeout: 1_000 })
    return () => idle.cancelIdleCallback?.(id)
  }
  const id = setTimeout(run, 0)
  return () => clearTimeout(id)
}

export type FirstScreenStatus = 'ready' | 'resuming' | 'failed'

/**
 * `checks`: the modules that check the flow's stored records; `stored`: whether any is stored (read
 * as it is); `later`: what to fetch once the first screen is up (the answers' schemas).
 */
export function useFirstScreen(checks: LazyPart<unknown>[], stored: () => boolean, later: Array<{ preload?(): void }>): FirstScreenStatus {
  const [status, setStatus] = useState<FirstScreenStatus>(() => (checks.every((c) => c.get()) || !stored() ? 'ready' : 'resuming'))
  useEffect(() => {
    let live = true
    if (status === 'resuming') {
      Promise.all(checks.map((c) => c.load())).then(
        () => live && setStatus('ready'),
        () => live && setStatus('failed'),
      )
    }
    const cancel = whenIdle(() => {
      for (const part of later) part.preload?.()
      // Later steps read the records they write (a retry's idempotency key, say).
      for (const c of checks) c.load().catch(() => {})
    })
    return () => {
      live = false
      cancel()
    }
  }, [])
  return status
}
