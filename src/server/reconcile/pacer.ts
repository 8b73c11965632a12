// Spaces requests so that a run of them never exceeds a rate: each start is at least 1/rate after
// the previous one's actual start (not its planned one, so a late timer never bunches two).
export type Clock = {
  now(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve()
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, Math.max(0, ms))
      signal?.addEventListener('abort', done, { once: true })
    }),
}

export type Pacer = {
  /** Resolves when the next request may start (or at once when `signal` aborts). */
  turn(signal?: AbortSignal): Promise<void>
  /** No request starts before `until` (the service said 429, with or without Retry-After). */
  holdUntil(until: number): void
}

export function createPacer(requestsPerSecond: number, clock: Clock = realClock): Pacer {
  if (!(requestsPerSecond > 0) || !Number.isFinite(requestsPerSecond)) throw new TypeError('requestsPerSecond must be a positive number')
  // Whole milliseconds, rounded up: three a second are 334 ms apart, never 4 within 999.9999 ms.
  const spacing = Math.ceil(1000 / requestsPerSecond)
  let next = -Infinity
  let queue = Promise.resolve()
  return {
    turn(signal) {
      // Turns are handed out one at a time, so concurrent callers also keep the spacing.
      const mine = queue.then(async () => {
        while (!signal?.aborted && clock.now() < next) await clock.sleep(next - clock.now(), signal)
        next = clock.now() + spacing
      })
      queue = mine.catch(() => {})
      return mine
    },
    holdUntil(until) {
      next = Math.max(next, until)
    },
  }
}
