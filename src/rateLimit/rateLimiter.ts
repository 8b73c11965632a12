// One limiter for every widget-path call: at most `limit` requests in any rolling `windowMs`.
// A slot is held from the moment a request leaves until `windowMs` after its answer came back,
// so the service, which counts arrivals, can never see more than `limit` in its own window.
import { type Clock, systemClock } from '../kernel/types'
import { RateLimitedError } from '../errors/ApiError'

export type Priority = 'user' | 'poll'

/** Slots shared with other pages of the same origin (the service limits per IP, not per page). */
export type SlotStore = {
  read(): Array<[string, number]>
  write(slots: Array<[string, number]>): void
}

export type LimiterStatus = { waiting: boolean; retries: number }

export type RateLimiterOptions = {
  limit?: number
  windowMs?: number
  /** Extra distance kept from the service's window, for clock and network jitter. */
  marginMs?: number
  /** How long an unanswered request is assumed to hold its slot. */
  inFlightHoldMs?: number
  clock?: Clock
  store?: SlotStore
  random?: () => number
  /** Polls wait while this says so (the page is hidden). */
  pollsPaused?: () => boolean
  /** First backoff after a 429 without Retry-After (default: the window, as the server's budget may be spent elsewhere). */
  backoffBaseMs?: number
  backoffMaxMs?: number
  /** The longest a Retry-After is obeyed; past it the normal backoff goes on. */
  retryAfterMaxMs?: number
}

type Task = { run: () => Promise<unknown>; priority: Priority; resolve(v: unknown): void; reject(e: unknown): void }

export type RateLimiter = {
  schedule<T>(run: () => Promise<T>, priority?: Priority): Promise<T>
  /** Re-check the queue (after the page became visible again). */
  wake(): void
  status(): LimiterStatus
  subscribe(listener: (status: LimiterStatus) => void): () => void
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const {
    limit = 5,
    windowMs = 10_000,
    marginMs = 300,
    inFlightHoldMs = 30_000,
    clock = systemClock,
    store,
    random = Math.random,
    pollsPaused = () => false,
    backoffBaseMs = windowMs,
    backoffMaxMs = 60_000,
    retryAfterMaxMs = 60_000,
  } = options
  // No slot, stored or local, can rightly be held longer than an unanswered request holds it.
  const longestHoldMs = inFlightHoldMs + windowMs

  const queue: Task[] = []
  let local: Array<[string, number]> = []
  let pausedUntil = 0
  let attempt = 0
  let timer: unknown
  let timerAt = Infinity
  let status: LimiterStatus = { waiting: false, retries: 0 }
  const listeners = new Set<(status: LimiterStatus) => void>()
  let seq = 0
  const pageId = Math.floor(random() * 1e9).toString(36)

  /**
   * Only `[string, finite number]` counts, each clamped to now + the longest hold: a poisoned
   * store or a clock moved backwards cannot stall the widget, and the clamped value is what is
   * written back, so the stall does not survive a reload either.
   */
  function sane(entries: unknown, now: number): Array<[string, number]> {
    if (!Array.isArray(entries)) return []
    const out: Array<[string, number]> = []
    for (const e of entries) {
      if (!Array.isArray(e) || e.length !== 2 || typeof e[0] !== 'string' || typeof e[1] !== 'number' || !Number.isFinite(e[1])) continue
      if (e[1] > now) out.push([e[0], Math.min(e[1], now + longestHoldMs)])
    }
    return out
  }

  function readShared(now: number): Array<[string, number]> {
    if (!store) return []
    const raw = store.read()
    const clean = sane(raw, now)
    if (clean.length !== raw.length || clean.some(([, until], i) => until !== raw[i]?.[1])) store.write(clean)
    return clean
  }

  function slots(now: number): Array<[string, number]> {
    local = sane(local, now)
    const merged = new Map<string, number>(readShared(now))
    for (const [id, until] of local) merged.set(id, until)
    return [...merged]
  }

  function hold(id: string, until: number) {
    const now = clock.now()
    local = sane(local, now).filter(([key]) => key !== id)
    local.push([id, until])
    if (store) {
      const shared = readShared(now).filter(([key]) => key !== id)
      shared.push([id, until])
      store.write(shared)
    }
  }

  function setStatus(next: LimiterStatus) {
    if (next.waiting === status.waiting && next.retries === status.retries) return
    status = next
    for (const listener of listeners) listener(status)
  }

  function wakeAt(at: number) {
    if (timer !== undefined && timerAt <= at) return
    if (timer !== undefined) clock.clearTimeout(timer)
    timerAt = at
    timer = clock.setTimeout(
      () => {
        timer = undefined
        timerAt = Infinity
        pump()
      },
      Math.max(0, at - clock.now()),
    )
  }

  function next(): Task | undefined {
    const user = queue.findIndex((t) => t.priority === 'user')
    if (user >= 0) return queue.splice(user, 1)[0]
    if (pollsPaused()) return undefined
    return queue.shift()
  }

  function pump() {
    for (;;) {
      const now = clock.now()
      if (queue.length === 0) return
      if (now < pausedUntil) return wakeAt(pausedUntil)
      const busy = slots(now)
      if (busy.length >= limit) {
        setStatus({ ...status, waiting: status.waiting || queue.some((t) => t.priority === 'user') })
        return wakeAt(Math.min(...busy.map(([, until]) => until)))
      }
      const task = next()
      if (!task) return
      start(task)
    }
  }

  function start(task: Task) {
    const id = `${pageId}.${seq++}`
    hold(id, clock.now() + inFlightHoldMs + windowMs)
    task.run().then(
      (value) => {
        hold(id, clock.now() + windowMs + marginMs)
        attempt = 0
        setStatus({ waiting: false, retries: status.retries })
        task.resolve(value)
        pump()
      },
      (error) => {
        hold(id, clock.now() + windowMs + marginMs)
        if (error instanceof RateLimitedError) {
          const jitter = 0.5 + random() * 0.5
          const backoff = Math.min(backoffMaxMs, backoffBaseMs * 2 ** attempt) * jitter
          const told = error.retryAfterMs
          const unannounced = told === undefined || !(told >= 0)
          pausedUntil = clock.now() + (unannounced ? backoff : Math.min(told, retryAfterMaxMs))
          // Only a 429 that said nothing grows the backoff: one that named its wait was obeyed.
          if (unannounced) attempt++
          queue.unshift(task)
          setStatus({ waiting: true, retries: status.retries + 1 })
        } else {
          task.reject(error)
        }
        pump()
      },
    )
  }

  return {
    schedule<T>(run: () => Promise<T>, priority: Priority = 'user') {
      return new Promise<T>((resolve, reject) => {
        queue.push({ run, priority, resolve: resolve as (v: unknown) => void, reject })
        pump()
      })
    },
    wake: pump,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export const RATE_SLOTS_KEY = 'stablecoin-widget:v1:rate-slots'

/** Slots in localStorage, so reloads and other tabs share the one budget. */
export function localSlotStore(storage: Storage, key = RATE_SLOTS_KEY): SlotStore {
  return {
    read() {
      try {
        const value: unknown = JSON.parse(storage.getItem(key) ?? '[]')
        return Array.isArray(value)
          ? value.filter((e): e is [string, number] => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && Number.isFinite(e[1]))
          : []
      } catch {
        return []
      }
    },
    write(slots) {
      try {
        storage.setItem(key, JSON.stringify(slots))
      } catch {
        // storage full or blocked: the in-memory slots still hold this page to the limit
      }
    },
  }
}
