// The limiter's code is fetched with the first request (rateLimit/lazyLimiter.ts): until then its
// status is idle; a request waits for it and then goes through the real limiter; a failed fetch is
// a network error, and the next request tries again.
import { describe, expect, it } from 'vitest'
import { NetworkError } from '../../../src/errors/ApiError'
import { lazyLimiter } from '../../../src/rateLimit/lazyLimiter'
import * as real from '../../../src/rateLimit/rateLimiter'

describe('lazyLimiter', () => {
  it('idle before its code is here; a request is scheduled by the real limiter once it is', async () => {
    let loads = 0
    const limiter = lazyLimiter(
      ({ createRateLimiter }) => createRateLimiter({ limit: 1, windowMs: 60_000 }),
      async () => (loads++, real),
    )
    expect(limiter.status()).toEqual({ waiting: false, retries: 0 })
    const seen: boolean[] = []
    limiter.subscribe((s) => void seen.push(s.waiting))
    expect(await limiter.schedule(async () => 'first')).toBe('first')
    // The real limiter's window: a second request waits (limit 1), and subscribers hear it.
    const second = limiter.schedule(async () => 'second')
    await new Promise((r) => setTimeout(r, 0))
    expect(limiter.status().waiting).toBe(true)
    expect(seen).toContain(true)
    expect(loads).toBe(1)
    void second.catch(() => {})
  })

  it('a fetch that fails is a NetworkError, and the next request fetches again', async () => {
    let loads = 0
    const limiter = lazyLimiter(
      ({ createRateLimiter }) => createRateLimiter(),
      async () => {
        if (++loads === 1) throw new TypeError('Failed to fetch dynamically imported module')
        return real
      },
    )
    await expect(limiter.schedule(async () => 1)).rejects.toBeInstanceOf(NetworkError)
    expect(await limiter.schedule(async () => 2)).toBe(2)
    expect(loads).toBe(2)
  })
})
