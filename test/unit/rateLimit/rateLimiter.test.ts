import { describe, expect, it } from 'vitest'
import { ApiError, RateLimitedError } from '../../../src/errors/ApiError'
import { createRateLimiter, type LimiterStatus, localSlotStore, type SlotStore } from '../../../src/rateLimit/rateLimiter'
import { createFakeClock, type FakeClock } from '../helpers/fakeClock'

/** A task that answers `ms` after it starts (on the fake clock) and records when. */
function timedTask(clock: FakeClock, log: Array<{ name: string; start: number; end?: number }>, name: string, ms = 500) {
  return () => {
    const entry: { name: string; start: number; end?: number } = { name, start: clock.now() }
    log.push(entry)
    return new Promise<string>((resolve) => {
      clock.setTimeout(() => {
        entry.end = clock.now()
        resolve(name)
      }, ms)
    })
  }
}

function memoryStore(): SlotStore & { slots: Array<[string, number]> } {
  const store = {
    slots: [] as Array<[string, number]>,
    read: () => store.slots.map(([id, until]) => [id, until] as [string, number]),
    write: (slots: Array<[string, number]>) => {
      store.slots = slots.map(([id, until]) => [id, until] as [string, number])
    },
  }
  return store
}

function maxInWindow(starts: number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b)
  let max = 0
  for (let i = 0; i < sorted.length; i++) {
    let n = 0
    for (let j = i; j < sorted.length && sorted[j]! < sorted[i]! + windowMs; j++) n++
    max = Math.max(max, n)
  }
  return max
}

describe('rate limiter', () => {
  it('never starts more than 5 tasks in any rolling 10 s window, holding slots until answer + window', async () => {
    const clock = createFakeClock()
    const limiter = createRateLimiter({ clock, random: () => 0.5 })
    const log: Array<{ name: string; start: number; end?: number }> = []
    const results: string[] = []
    for (let i = 0; i < 20; i++) {
      void limiter.schedule(timedTask(clock, log, `t${i}`, 500 + i * 100), i % 2 ? 'poll' : 'user').then((v) => results.push(v))
    }
    await clock.settle()
    expect(log).toHaveLength(5)
    await clock.advance(200_000)
    expect(log).toHaveLength(20)
    expect(results).toHaveLength(20)
    expect(
      maxInWindow(
        log.map((e) => e.start),
        10_000,
      ),
    ).toBeLessThanOrEqual(5)
    // A slot is only free again a full window after its answer: at each start, fewer than 5
    // earlier tasks may still be in flight or answered less than 10 s before.
    log.forEach((entry, i) => {
      const holding = log.slice(0, i).filter((e) => e.end === undefined || e.end + 10_000 > entry.start)
      expect(holding.length, `at the start of ${entry.name}`).toBeLessThan(5)
    })
  })

  it('counts an unanswered request as holding its slot', async () => {
    const clock = createFakeClock()
    const limiter = createRateLimiter({ clock, inFlightHoldMs: 30_000 })
    const log: Array<{ name: string; start: number; end?: number }> = []
    for (let i = 0; i < 5; i++) void limiter.schedule(() => new Promise(() => {}))
    void limiter.schedule(timedTask(clock, log, 'sixth'))
    await clock.advance(39_999)
    expect(log).toHaveLength(0)
    await clock.advance(1)
    expect(log.map((e) => e.start)).toEqual([40_000])
  })

  it('starts user tasks queued after polls before those polls', async () => {
    const clock = createFakeClock()
    const limiter = createRateLimiter({ clock })
    const log: Array<{ name: string; start: number; end?: number }> = []
    for (let i = 0; i < 5; i++) void limiter.schedule(timedTask(clock, log, `fill${i}`, 100))
    void limiter.schedule(timedTask(clock, log, 'poll1', 100), 'poll')
    void limiter.schedule(timedTask(clock, log, 'poll2', 100), 'poll')
    void limiter.schedule(timedTask(clock, log, 'user1', 100), 'user')
    await clock.advance(60_000)
    expect(log.slice(5).map((e) => e.name)).toEqual(['user1', 'poll1', 'poll2'])
  })

  it('retries a 429 after its Retry-After and not before, with status and subscribers kept informed', async () => {
    const clock = createFakeClock()
    const limiter = createRateLimiter({ clock })
    const seen: LimiterStatus[] = []
    limiter.subscribe((s) => seen.push(s))
    const calls: number[] = []
    let result: string | undefined
    void limiter
      .schedule(async () => {
        calls.push(clock.now())
        if (calls.length === 1) throw new RateLimitedError(3000)
        return 'ok'
      })
      .then((v) => (result = v))
    await clock.settle()
    expect(calls).toEqual([0])
    expect(limiter.status()).toEqual({ waiting: true, retries: 1 })
    await clock.advance(2999)
    expect(calls).toEqual([0])
    expect(limiter.status().waiting).toBe(true)
    expect(result).toBeUndefined()
    await clock.advance(1)
    expect(calls).toEqual([0, 3000])
    expect(result).toBe('ok')
    expect(limiter.status()).toEqual({ waiting: false, retries: 1 })
    expect(seen).toEqual([
      { waiting: true, retries: 1 },
      { waiting: false, retries: 1 },
    ])
  })

  it('an unsubscribed listener hears nothing more', async () => {
    const clock = createFakeClock()
    const limiter = createRateLimiter({ clock })
    const seen: LimiterStatus[] = []
    const off = limiter.subscribe((s) => seen.push(s))
    off()
    let n = 0
    void limiter.schedule(async () => {
      if (n++ === 0) throw new RateLimitedError(1000)
      return 1
    })
    await clock.advance(5000)
    expect(n).toBe(2)
    expect(seen).toEqual([])
  })

  it('backs off exponentially with jitter when the 429 names no delay', async () => {
    const clock = createFakeClock()
    // jitter = 0.5 + random * 0.5 = 0.75
    const limiter = createRateLimiter({ clock, random: () => 0.5, backoffBaseMs: 1000, limit: 10 })
    const calls: number[] = []
    let result: string | undefined
    void limiter
      .schedule(async () => {
        calls.push(clock.now())
        if (calls.length <= 3) throw new RateLimitedError(undefined)
        return 'ok'
      })
      .then((v) => (result = v))
    await clock.advance(749)
    expect(calls).toEqual([0])
    await clock.advance(10_000)
    // 1000·0.75, then 2000·0.75, then 4000·0.75
    expect(calls).toEqual([0, 750, 2250, 5250])
    expect(result).toBe('ok')
  })

  it('applies the injected jitter and caps the backoff at backoffMaxMs', async () => {
    const clock = createFakeClock()
    const randoms = [0.123 /* page id */, 0, 1, 1, 1]
    const limiter = createRateLimiter({
      clock,
      random: () => randoms.shift() ?? 1,
      backoffBaseMs: 1000,
      backoffMaxMs: 3000,
      limit: 10,
    })
    const calls: number[] = []
    void limiter.schedule(async () => {
      calls.push(clock.now())
      if (calls.length <= 4) throw new RateLimitedError(undefined)
      return 'ok'
    })
    await clock.advance(20_000)
    // 1000·0.5, 2000·1, min(3000, 4000)·1, min(3000, 8000)·1
    expect(calls).toEqual([0, 500, 2500, 5500, 8500])
  })

  it('rejects other errors to the caller without retrying', async () => {
    const clock = createFakeClock()
    const limiter = createRateLimiter({ clock })
    let calls = 0
    const failure = new ApiError(400, 'invalid_request', 'amount is bad')
    const outcome = limiter.schedule(async () => {
      calls++
      throw failure
    })
    await expect(outcome).rejects.toBe(failure)
    await clock.advance(60_000)
    expect(calls).toBe(1)
    expect(limiter.status()).toEqual({ waiting: false, retries: 0 })
  })

  it('holds polls while pollsPaused says so, and starts them after wake()', async () => {
    const clock = createFakeClock()
    let paused = true
    const limiter = createRateLimiter({ clock, pollsPaused: () => paused })
    const log: Array<{ name: string; start: number; end?: number }> = []
    void limiter.schedule(timedTask(clock, log, 'poll'), 'poll')
    await clock.advance(60_000)
    expect(log).toEqual([])
    void limiter.schedule(timedTask(clock, log, 'user'), 'user')
    await clock.settle()
    expect(log.map((e) => e.name)).toEqual(['user'])
    await clock.advance(1000) // the user task answers; the poll still waits
    expect(log.map((e) => e.name)).toEqual(['user'])
    paused = false
    await clock.advance(1000)
    expect(log.map((e) => e.name)).toEqual(['user'])
    limiter.wake()
    await clock.settle()
    expect(log.map((e) => [e.name, e.start])).toEqual([
      ['user', 60_000],
      ['poll', 62_000],
    ])
  })

  it('two limiters on one SlotStore share one budget', async () => {
    const clock = createFakeClock()
    const store = memoryStore()
    const a = createRateLimiter({ clock, store })
    const b = createRateLimiter({ clock, store })
    const log: Array<{ name: string; start: number; end?: number }> = []
    for (let i = 0; i < 3; i++) void a.schedule(timedTask(clock, log, `a${i}`, 100))
    for (let i = 0; i < 2; i++) void b.schedule(timedTask(clock, log, `b${i}`, 100))
    await clock.advance(200)
    expect(log).toHaveLength(5)
    expect(store.slots).toHaveLength(5)
    void a.schedule(timedTask(clock, log, 'a-late', 100))
    void b.schedule(timedTask(clock, log, 'b-late', 100))
    await clock.advance(10_000)
    expect(log).toHaveLength(5)
    await clock.advance(60_000)
    expect(log).toHaveLength(7)
    // answers at 100, slots free at 100 + 10 000 + 300 margin
    expect(log.slice(5).every((e) => e.start >= 10_400)).toBe(true)
    expect(
      maxInWindow(
        log.map((e) => e.start),
        10_000,
      ),
    ).toBeLessThanOrEqual(5)
  })

  it('localSlotStore survives garbage and a throwing storage', () => {
    const data = new Map<string, string>()
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    } as unknown as Storage
    const store = localSlotStore(storage, 'k')
    expect(store.read()).toEqual([])
    store.write([['x', 5]])
    expect(store.read()).toEqual([['x', 5]])
    data.set('k', '{not json')
    expect(store.read()).toEqual([])
    data.set('k', '[["a",1],"junk",[1]]')
    expect(store.read()).toEqual([['a', 1]])
    const broken = {
      getItem: () => {
        throw new Error('blocked')
      },
      setItem: () => {
        throw new Error('quota')
      },
    } as unknown as Storage
    const b = localSlotStore(broken)
    expect(b.read()).toEqual([])
    b.write([['y', 1]])
    expect(b.read()).toEqual([])
  })
})
