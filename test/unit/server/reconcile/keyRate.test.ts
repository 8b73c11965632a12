// @vitest-environment node
// The key's rate, shared by the handler (the buyers' requests) and the reconciler: the handler's
// requests are never held, the reconciler's wait for the room they leave and for the service's 429.
import { describe, expect, it } from 'vitest'
import { createKeyRate, createPartnerHandler, type Clock } from '../../../../src/server/index'

function manualClock(t = 1_000_000): Clock & { t: number } {
  const clock = { t, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms) }
  return clock
}
const answering = (status: number, headers: Record<string, string> = {}) => (async () => new Response('{}', { status, headers })) as typeof fetch

describe('createKeyRate', () => {
  it('lets the reconciler go at once while nothing else happens', () => {
    const rate = createKeyRate({ requestsPerSecond: 10, clock: manualClock() })
    expect(rate.reconcilerWait()).toBe(0)
  })

  it("holds the reconciler for a 429's Retry-After, in seconds or as a date, and 1 s when it names none", async () => {
    const clock = manualClock()
    const rate = createKeyRate({ clock })
    await rate.wrapFetch(answering(429, { 'Retry-After': '7' }))('https://api.example.com/v1/bank/payout/status')
    expect(rate.reconcilerWait()).toBe(7000)
    clock.t += 7000
    expect(rate.reconcilerWait()).toBe(0)
    await rate.wrapFetch(answering(429))('https://api.example.com/v1/limits')
    expect(rate.reconcilerWait()).toBe(1000)
    clock.t += 1000
    await rate.wrapFetch(answering(429, { 'Retry-After': new Date(clock.t + 30_000).toUTCString() }))('https://api.example.com/v1/limits')
    expect(rate.reconcilerWait()).toBeGreaterThan(29_000)
    expect(rate.reconcilerWait()).toBeLessThanOrEqual(30_000)
    rate.rateLimited(60_000)
    expect(rate.reconcilerWait()).toBe(60_000)
  })

  it('never holds or counts against the handler: its requests all go, and are only noted', async () => {
    const clock = manualClock()
    const rate = createKeyRate({ requestsPerSecond: 2, clock })
    const sent: string[] = []
    const fetch = rate.wrapFetch((async (url: string) => (sent.push(url), new Response('{}'))) as unknown as typeof globalThis.fetch)
    for (let i = 0; i < 5; i++) await fetch(`https://api.example.com/v1/card/status#${i}`)
    expect(sent).toHaveLength(5)
  })

  it("leaves the handler as much room again as it used in the last second: the reconciler waits until the key's rate allows both", async () => {
    const clock = manualClock()
    const rate = createKeyRate({ requestsPerSecond: 10, clock })
    const fetch = rate.wrapFetch(answering(200))
    // The handler: 3 requests at t, t+100, t+200. Counted twice: 6, plus the reconciler's next: 7 of 10.
    const start = clock.t
    for (let i = 0; i < 3; i++) {
      await fetch('https://api.example.com/v1/card/status')
      clock.t += 100
    }
    expect(rate.reconcilerWait()).toBe(0)
    rate.reconcilerStarts()
    rate.reconcilerStarts()
    rate.reconcilerStarts() // 3 + 3 + 3 = 9: one more would make 10 of 10
    expect(rate.reconcilerWait()).toBe(0)
    rate.reconcilerStarts()
    // Now 3 + 3 + 4 = 10: the next waits until the handler's first request leaves the window.
    expect(rate.reconcilerWait()).toBe(start + 1000 - clock.t)
    clock.t = start + 1000
    expect(rate.reconcilerWait()).toBe(0)
  })

  it('holds the reconciler back to its floor while the handler alone uses half the rate or more', async () => {
    const clock = manualClock()
    const rate = createKeyRate({ requestsPerSecond: 10, clock })
    const fetch = rate.wrapFetch(answering(200))
    rate.reconcilerStarts()
    for (let i = 0; i < 5; i++) {
      await fetch('https://api.example.com/v1/card/status')
      clock.t += 50
    }
    expect(rate.reconcilerWait()).toBeGreaterThan(0)
  })

  it("keeps a floor for the reconciler however busy the handler: a tenth of the key's rate, at least one request per 10 s", async () => {
    for (const [requestsPerSecond, floorMs] of [
      [10, 1000],
      [100, 100],
      [2, 5000],
      [0.5, 10_000],
    ] as const) {
      const clock = manualClock()
      const rate = createKeyRate({ requestsPerSecond, clock })
      const fetch = rate.wrapFetch(answering(200))
      const starts: number[] = []
      // The handler alone at the key's whole rate, for a minute; the reconciler takes each turn it
      // gets (counted once the handler has filled the first second).
      const warm = clock.t + 1000
      const end = clock.t + 61_000
      const step = Math.max(1, Math.floor(1000 / requestsPerSecond))
      while (clock.t < end) {
        await fetch('https://api.example.com/v1/limits')
        if (rate.reconcilerWait() === 0) {
          rate.reconcilerStarts()
          if (clock.t >= warm) starts.push(clock.t)
        }
        clock.t += step
      }
      const gaps = starts.slice(1).map((t, i) => t - starts[i])
      expect(starts.length, `${requestsPerSecond}/s`).toBeGreaterThanOrEqual(Math.floor(60_000 / floorMs) - 1)
      // Never more than the floor while the handler is that busy.
      expect(Math.min(...gaps), `${requestsPerSecond}/s`).toBeGreaterThanOrEqual(floorMs)
      expect(Math.max(...gaps), `${requestsPerSecond}/s`).toBeLessThanOrEqual(floorMs + step)
    }
  })

  it("the floor does not lift a 429's hold", async () => {
    const clock = manualClock()
    const rate = createKeyRate({ requestsPerSecond: 10, clock })
    rate.rateLimited(30_000)
    clock.t += 20_000
    expect(rate.reconcilerWait()).toBe(10_000)
  })

  it('refuses a rate that is not a positive number', () => {
    for (const requestsPerSecond of [0, -1, Number.NaN]) expect(() => createKeyRate({ requestsPerSecond })).toThrow(/positive/)
  })
})

describe('createPartnerHandler({ keyRate })', () => {
  it("notes the buyers' requests it forwards, and holds the reconciler for the service's 429 to one of them", async () => {
    const clock = manualClock()
    const keyRate = createKeyRate({ requestsPerSecond: 4, clock })
    let answer = 200
    const handler = createPartnerHandler({
      apiBase: 'https://api.example.com',
      apiKey: 'sk_test_key',
      allowedOrigins: [],
      allowAnonymous: true,
      keyRate,
      fetch: (async () =>
        new Response(answer === 200 ? '{"limits":[]}' : '{"error":{"code":"rate_limited","message":"slow down"}}', {
          status: answer,
          headers: answer === 429 ? { 'Retry-After': '9' } : {},
        })) as typeof fetch,
      log: () => {},
    })
    const ask = () => handler(new Request('https://shop.example/limits'))
    expect((await ask()).status).toBe(200)
    expect((await ask()).status).toBe(200)
    // Two of the buyers' requests this second, counted twice: no room for the reconciler under 4.
    expect(keyRate.reconcilerWait()).toBe(1000)
    clock.t += 1000
    answer = 429
    expect((await ask()).status).toBe(429)
    expect(keyRate.reconcilerWait()).toBe(9000)
  })
})
