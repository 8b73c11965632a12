// 5 requests per rolling 10 s per client IP, as the contract states for the widget path.
export function createIpLimiter({ limit = 5, windowMs = 10_000, now = () => Date.now() } = {}) {
  const hits = new Map()
  return {
    /** Counts the request and returns 0, or returns the seconds until a slot frees (at `t`, default now). */
    take(ip, t = now()) {
      const recent = (hits.get(ip) ?? []).filter((h) => h > t - windowMs)
      if (recent.length >= limit) {
        hits.set(ip, recent)
        return Math.max(1, Math.ceil((recent[0] + windowMs - t) / 1000))
      }
      recent.push(t)
      hits.set(ip, recent)
      return 0
    },
    reset() {
      hits.clear()
    },
  }
}

/**
 * The partner path's limit: the contract sets one rate per key, for every partner request made with
 * it (the partner's backend forwarding the widget's calls and its reconciler alike), and does not
 * publish the number. The sandbox's key allows KEY_RATE: a rolling window, like the IP limit.
 */
export const KEY_RATE = { limit: 30, windowMs: 1_000 }

export function createKeyLimiter({ limit = KEY_RATE.limit, windowMs = KEY_RATE.windowMs, now = () => Date.now() } = {}) {
  return createIpLimiter({ limit, windowMs, now })
}
