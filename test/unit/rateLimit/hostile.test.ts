// Issue 15, items 1, 2 and 11: stored slots, Retry-After and 429s without it cannot stall the
// widget or make it hammer the service.
import { describe, expect, it } from 'vitest'
import { retryAfterMs } from '../../../src/api/client'
import { RateLimitedError } from '../../../src/errors/ApiError'
import { createRateLimiter, localSlotStore } from '../../../src/rateLimit/rateLimiter'
import { createFakeClock } from '../helpers/fakeClock'
import { memoryStorage } from '../helpers/memoryStorage'

const KEY = 'stablecoin-widget:v1:rate-slots'
const HOUR = 3_600_000

function poisoned(entries: unknown[]) {
  const storage = memoryStorage()
  storage.setItem(KEY, JSON.stringify(entries))
  return storage
}

/** Schedules one quick task and returns when (on the fake clock) it started, or undefined. */
async function firstStart(clock: ReturnType<typeof createFakeClock>, limiter: ReturnType<typeof createRateLimiter>, budgetMs: number) {
  let started: number | undefined
  void limiter.schedule(async () => {
    started ??= clock.now()
    return 'ok'
  })
  await clock.advance(budgetMs)
  return started
}

describe('stored rate-limit slots', () => {
  const bad: Array<[string, unknown[]]> = [
    ['a time of 1e308', Array.from({ length: 5 }, (_, i) => [`x${i}`, 1e308])],
    ['a string time', Array.from({ length: 5 }, (_, i) => [`x${i}`, '99999999999999'])],
    ['an array for a time', Array.from({ length: 5 }, (_, i) => [`x${i}`, [1e308]])],
    ['an object for a time', Array.from({ length: 5 }, (_, i) => [`x${i}`, { valueOf: 1e308 }])],
    ['a number for an id', Array.from({ length: 5 }, (_, i) => [i, 1e308])],
  ]
  for (const [name, entries] of bad) {
    it(`a slot store holding ${name} does not stall the widget, and is not written back`, async () => {
      const clock = createFakeClock(1_000_000)
      const storage = poisoned(entries)
      const limiter = createRateLimiter({ clock, store: localSlotStore(storage, KEY), random: () => 0.5 })
      // At most the longest hold a real request can have (in flight + window).
      const started = await firstStart(clock, limiter, 40_001)
      expect(started).toBeDefined()
      const stored = JSON.parse(storage.getItem(KEY) ?? '[]') as Array<[unknown, unknown]>
      for (const [id, until] of stored) {
        expect(typeof id).toBe('string')
        expect(Number.isFinite(until)).toBe(true)
        expect(until as number).toBeLessThanOrEqual(clock.now() + 40_000)
      }
    })
  }

  it('a clock moved back an hour does not hold the budget for that hour', async () => {
    const clock = createFakeClock(10 * HOUR)
    const storage = memoryStorage()
    const store = localSlotStore(storage, KEY)
    const before = createRateLimiter({ clock, store, random: () => 0.5 })
    for (let i = 0; i < 5; i++) await before.schedule(async () => i)
    // The same browser, after its clock was corrected backwards: the slots now look an hour away.
    const back = createFakeClock(9 * HOUR)
    const after = createRateLimiter({ clock: back, store: localSlotStore(storage, KEY), random: () => 0.5 })
    const started = await firstStart(back, after, 40_001)
    expect(started).toBeDefined()
    // And a reload (a third limiter on the same storage) does not find the hour again.
    const reload = createRateLimiter({ clock: back, store: localSlotStore(storage, KEY), random: () => 0.5 })
    expect(await firstStart(back, reload, 40_001)).toBeDefined()
  })

  it('well-formed slots still hold the budget across pages', async () => {
    const clock = createFakeClock(1_000_000)
    const storage = poisoned(Array.from({ length: 5 }, (_, i) => [`p.${i}`, 1_000_000 + 8_000]))
    const limiter = createRateLimiter({ clock, store: localSlotStore(storage, KEY), random: () => 0.5 })
    const started = await firstStart(clock, limiter, 20_000)
    expect(started).toBe(1_008_000)
  })
})

describe('Retry-After', () => {
  it('a Retry-After of 99999999999 s or a date in 2999 counts as at most 60 s', () => {
    const now = Date.parse('2026-11-22T12:00:00Z')
    expect(retryAfterMs('99999999999', now)).toBe(60_000)
    expect(retryAfterMs('Fri, 01 Jan 2999 00:00:00 GMT', now)).toBe(60_000)
    expect(retryAfterMs('30', now)).toBe(30_000)
  })

  it('the limiter waits at most 60 s on a huge Retry-After, then goes on with the normal backoff', async () => {
    const clock = createFakeClock(0)
    const limiter = createRateLimiter({ clock, random: () => 0.5 })
    const attempts: number[] = []
    void limiter.schedule(async () => {
      attempts.push(clock.now())
      if (attempts.length === 1) throw new RateLimitedError(99_999_999_999_000)
      if (attempts.length === 2) throw new RateLimitedError(undefined)
      return 'ok'
    })
    await clock.advance(200_000)
    expect(attempts).toHaveLength(3)
    expect(attempts[1]! - attempts[0]!).toBeLessThanOrEqual(60_000)
    expect(attempts[2]! - attempts[1]!).toBeGreaterThan(0)
  })
})

describe('429 with no Retry-After', () => {
  it('never retries more than twice in any 10 s, whatever the jitter', async () => {
    for (const r of [0, 0.5, 0.999]) {
      const clock = createFakeClock(0)
      const limiter = createRateLimiter({ clock, random: () => r })
      const attempts: number[] = []
      void limiter.schedule(async () => {
        attempts.push(clock.now())
        throw new RateLimitedError(undefined)
      })
      await clock.advance(120_000)
      expect(attempts.length).toBeGreaterThan(3)
      for (const start of attempts) {
        const inWindow = attempts.filter((t) => t >= start && t < start + 10_000)
        expect(inWindow.length, `attempts at ${attempts.join(', ')}`).toBeLessThanOrEqual(2)
      }
    }
  })
})

describe('429s that named their wait do not grow the backoff of the next one that did not', () => {
  it('after three Retry-After: 1, the first unannounced 429 waits one window, not eight', async () => {
    const clock = createFakeClock(0)
    const limiter = createRateLimiter({ clock, random: () => 0.999 })
    const attempts: number[] = []
    let n = 0
    const done = limiter.schedule(async () => {
      attempts.push(clock.now())
      n++
      if (n <= 3) throw new RateLimitedError(1_000)
      if (n === 4) throw new RateLimitedError(undefined)
      return 'ok'
    })
    await clock.advance(30_000)
    expect(await done).toBe('ok')
    expect(attempts).toHaveLength(5)
    const wait = attempts[4] - attempts[3]
    expect(wait).toBeGreaterThanOrEqual(5_000)
    expect(wait).toBeLessThanOrEqual(11_000)
  })
})
