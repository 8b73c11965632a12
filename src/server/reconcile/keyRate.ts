// The key's rate, shared by the handler and the reconciler of one instance (issue 37). The service
// limits the key as a whole; the buyers' requests through the handler go first: they are never
// held, only noted. The reconciler waits while the service's last 429 holds (its Retry-After), and,
// when the key's rate is known, until there is room for its request beside as much again as the
// handler used in the last second, so that a busy handler has room to grow; but never longer than
// its floor (a tenth of the key's rate, at least one request per 10 s), so that no client of the
// handler can starve it.
import { type Clock, realClock } from './pacer'

export type KeyRateOptions = {
  /**
   * The key's whole rate in requests per second, as the operator configured it. Without it only the
   * service's 429s hold the reconciler.
   */
  requestsPerSecond?: number
  clock?: Clock
}

export type KeyRate = {
  /** The handler's fetch, noted: createPartnerHandler({ keyRate }) wraps its own with it. */
  wrapFetch(fetch: typeof globalThis.fetch): typeof globalThis.fetch
  /** The reconciler's side: milliseconds to wait before its next request (0: it may go now). */
  reconcilerWait(): number
  /** The reconciler starts a request now. */
  reconcilerStarts(): void
  /** The service answered 429: no reconciler request before `retryAfterMs` (1 s when it named none). */
  rateLimited(retryAfterMs?: number): void
}

const WINDOW = 1000
/** A Retry-After beyond this is read as this (a misconfigured proxy must not stop the reconciler for days). */
const LONGEST_HOLD = 600_000
/** The reconciler's floor: this share of the key's rate, and at least one request per FLOOR_LONGEST ms. */
const FLOOR_SHARE = 0.1
const FLOOR_LONGEST = 10_000

export function createKeyRate({ requestsPerSecond, clock = realClock }: KeyRateOptions = {}): KeyRate {
  if (requestsPerSecond !== undefined && !(requestsPerSecond > 0 && Number.isFinite(requestsPerSecond))) {
    throw new TypeError("createKeyRate: requestsPerSecond must be a positive number (the key's whole rate)")
  }
  // Starts within the last second, oldest first: the handler's and the reconciler's.
  const recent: Array<{ at: number; handler: boolean }> = []
  let heldUntil = -Infinity
  // (Counted from its creation: the floor's first turn is floorMs after it.)
  let lastReconcilerStart = clock.now()
  const floorMs = requestsPerSecond === undefined ? 0 : Math.min(FLOOR_LONGEST, 1000 / (FLOOR_SHARE * requestsPerSecond))
  const prune = (now: number) => {
    while (recent.length && recent[0].at <= now - WINDOW) recent.shift()
  }
  const rateLimited = (retryAfterMs?: number) => {
    const hold = retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > 0 ? Math.min(retryAfterMs, LONGEST_HOLD) : 1000
    heldUntil = Math.max(heldUntil, clock.now() + hold)
  }
  return {
    wrapFetch(fetch) {
      return async (input, init) => {
        const now = clock.now()
        prune(now)
        recent.push({ at: now, handler: true })
        const res = await fetch(input, init)
        if (res.status === 429) rateLimited(retryAfter(res.headers.get('Retry-After'), clock.now()))
        return res
      }
    },
    reconcilerWait() {
      const now = clock.now()
      prune(now)
      const held = Math.max(0, heldUntil - now)
      if (requestsPerSecond === undefined) return held
      // Each handler request weighs two (itself, and the room left for one more like it).
      let weight = recent.reduce((sum, r) => sum + (r.handler ? 2 : 1), 0)
      let room = now
      for (const r of recent) {
        if (weight + 1 <= requestsPerSecond) break
        weight -= r.handler ? 2 : 1
        room = r.at + WINDOW
      }
      // The floor: however busy the handler, one request per floorMs.
      return Math.max(held, Math.min(room, lastReconcilerStart + floorMs) - now, 0)
    },
    reconcilerStarts() {
      const now = clock.now()
      prune(now)
      recent.push({ at: now, handler: false })
      lastReconcilerStart = now
    },
    rateLimited,
  }
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined
  if (/^\d{1,10}$/.test(value.trim())) return Number(value.trim()) * 1000
  const date = Date.parse(value)
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined
}
