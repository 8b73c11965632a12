// @vitest-environment node
// One signed-in user cannot spend the partner's whole key (the service's rate is per key): each user
// has a request rate of their own at the kit (userRate), answered 429 user_rate_limited with
// Retry-After once spent, before the service is asked; another user is not held by it.
import { describe, expect, it } from 'vitest'
import { createPartnerHandler } from '../../../src/server/index'
import { createUserRate } from '../../../src/server/userRate'

const SHOP = 'https://shop.example'

describe('a user’s request rate (token bucket per user)', () => {
  it('lets a burst through, then holds that user only, and refills with time', () => {
    let now = 0
    const rate = createUserRate({ requestsPerMinute: 60 }, () => now)
    const first = Array.from({ length: 30 }, () => rate.take('alice'))
    expect(first.every((wait) => wait === 0)).toBe(true)
    expect(rate.take('alice')).toBe(1000)
    expect(rate.take('bob')).toBe(0)
    now += 1000
    expect(rate.take('alice')).toBe(0)
    expect(rate.take('alice')).toBe(1000)
  })

  it('forgets users whose bucket is full again (memory bounded by the users of the last minute)', () => {
    let now = 0
    const rate = createUserRate({ requestsPerMinute: 60 }, () => now)
    for (let i = 0; i < 1000; i++) rate.take(`user-${i}`)
    expect(rate.size()).toBe(1000)
    now += 61_000
    rate.take('later')
    expect(rate.size()).toBe(1)
  })

  it('a wall clock stepped back (NTP) holds no one for the size of the step, and memory is still swept (from an attacker’s review)', () => {
    let now = 10 * 3_600_000
    const rate = createUserRate({ requestsPerMinute: 120 }, () => now)
    expect(rate.take('alice')).toBe(0)
    now -= 3_600_000
    expect(rate.take('alice')).toBe(0)
    for (let i = 0; i < 100; i++) rate.take(`user-${i}`)
    now += 31_000
    rate.take('later')
    expect(rate.size()).toBe(1)
  })

  it('refuses a rate that is not a positive number', () => {
    expect(() => createUserRate({ requestsPerMinute: 0 })).toThrow(TypeError)
    expect(() => createUserRate({ requestsPerMinute: Number.NaN })).toThrow(TypeError)
  })
})

describe('the handler under one user’s flood', () => {
  function handler(userRate?: { requestsPerMinute: number } | false) {
    let calls = 0
    const handle = createPartnerHandler({
      apiBase: 'https://api.example',
      apiKey: 'sk_test',
      allowedOrigins: [SHOP],
      authenticate: (token) => token,
      fetch: (async () => {
        calls++
        return Response.json({ id: 'cp_1', status: 'pending' })
      }) as typeof fetch,
      log: () => {},
      ...(userRate === undefined ? {} : { userRate }),
    })
    const status = (user: string) =>
      handle(
        new Request(`${SHOP}/card/status`, {
          method: 'POST',
          headers: { Origin: SHOP, 'Content-Type': 'application/json', Authorization: `Bearer ${user}` },
          body: JSON.stringify({ id: 'cp_1' }),
        }),
      )
    return { status, calls: () => calls }
  }

  it('answers 429 user_rate_limited with Retry-After once the user’s rate is spent, without asking the service; another user goes on', async () => {
    const { status, calls } = handler({ requestsPerMinute: 6 })
    const answers = []
    for (let i = 0; i < 4; i++) answers.push(await status('mallory'))
    expect(answers.slice(0, 3).map((r) => r.status)).not.toContain(429)
    const held = answers[3]
    expect(held.status).toBe(429)
    // 6 a minute: the next request in up to 10 s (less the time these took).
    const seconds = Number(held.headers.get('Retry-After'))
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(10)
    expect(await held.json()).toEqual({
      error: { code: 'user_rate_limited', message: `Too many requests from this user: try again in ${seconds} s.` },
    })
    const before = calls()
    expect((await status('mallory')).status).toBe(429)
    expect(calls()).toBe(before)
    expect((await status('alice')).status).not.toBe(429)
  }, 30_000)

  it('holds a flood by default (120 a minute, a burst of 60), and not at all with userRate: false', async () => {
    const limited = handler()
    // A hundred at once: the burst of 60 goes, and about as many as two a second refill meanwhile.
    const codes = (await Promise.all(Array.from({ length: 100 }, () => limited.status('mallory')))).map((r) => r.status)
    const held = codes.filter((c) => c === 429).length
    expect(held).toBeGreaterThan(0)
    expect(held).toBeLessThanOrEqual(40)
    const open = handler(false)
    const unheld = (await Promise.all(Array.from({ length: 100 }, () => open.status('mallory')))).map((r) => r.status)
    expect(unheld).not.toContain(429)
  }, 30_000)
})
