// 5 requests per rolling 10 s per client IP, as the contract states for the widget path.
export function createIpLimiter({ limit = 5, windowMs = 10_000, now = () => Date.now() } = {}) {
  const hits = new Map()
  return {
    /** Counts the request and returns 0, or returns the seconds until a slot frees. */
    take(ip) {
      const t = now()
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
