// Each signed-in user's own request rate at the kit: the service limits the partner's key as a whole
// (partner-api.md, "Authentication"), so one user, or one stolen session, must not spend it for every
// other buyer. A token bucket per user, in this process: a burst of half a minute's requests, then
// the rate. A user held is answered 429 user_rate_limited with Retry-After before the service is
// asked. Memory holds only the users of the last half minute (a full bucket is forgotten).

export type UserRateOptions = {
  /** Requests one user may make per minute, on average (a burst of half as many goes at once). */
  requestsPerMinute: number
}

export const DEFAULT_USER_RATE: UserRateOptions = { requestsPerMinute: 120 }

export type UserRate = {
  /** 0 when this user may go now (the request counted), else the milliseconds until they may. */
  take(user: string): number
  /** Users held in memory (for tests and metrics). */
  size(): number
}

/** The option, checked once when the handler is made: the rate (the default when unset), or none for `false`. */
export function checkUserRate(option: unknown): UserRate | undefined {
  if (option === false) return undefined
  if (option !== undefined && (typeof option !== 'object' || option === null)) throw new TypeError('userRate must be { requestsPerMinute } or false')
  return createUserRate((option as UserRateOptions | undefined) ?? DEFAULT_USER_RATE)
}

export function createUserRate({ requestsPerMinute }: UserRateOptions, now: () => number = Date.now): UserRate {
  if (!(Number.isFinite(requestsPerMinute) && requestsPerMinute > 0)) {
    throw new TypeError('userRate.requestsPerMinute must be a positive number (requests one user may make per minute), or userRate: false')
  }
  const capacity = Math.max(1, requestsPerMinute / 2)
  const perMs = requestsPerMinute / 60_000
  const refillMs = capacity / perMs
  const buckets = new Map<string, { tokens: number; at: number }>()
  let sweptAt = now()
  // A clock stepped back (NTP) counts as no time passed, never as a debt.
  const level = (b: { tokens: number; at: number }, t: number) => Math.min(capacity, b.tokens + Math.max(0, t - b.at) * perMs)
  const sweep = (t: number) => {
    sweptAt = t
    for (const [user, b] of buckets) if (level(b, t) >= capacity) buckets.delete(user)
  }
  return {
    take(user) {
      const t = now()
      if (t < sweptAt) sweptAt = t
      if (t - sweptAt >= refillMs) sweep(t)
      const b = buckets.get(user)
      const tokens = b ? level(b, t) : capacity
      if (tokens < 1) {
        if (b) Object.assign(b, { tokens, at: t })
        return Math.ceil((1 - tokens) / perMs)
      }
      buckets.set(user, { tokens: tokens - 1, at: t })
      return 0
    },
    size: () => buckets.size,
  }
}
