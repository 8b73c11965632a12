import { describe, expect, it } from 'vitest'
import { type Followed, follow, isFollowEvent, tracked } from '../../../src/kernel/follow'
import { expiryEffect, isExpired, priced, requoteOn, staleness } from '../../../src/kernel/quote'
import { createFakeClock } from '../helpers/fakeClock'

const NOW = Date.UTC(2026, 10, 23, 12)
const iso = (ms: number) => new Date(NOW + ms).toISOString()

describe('follow-status sub-machine', () => {
  const base: Followed = { attempt: 0 }

  it('waits, shows a problem, retries once with a new attempt, and knows which tab follows', () => {
    let s = follow(base, { type: 'WAITING', waiting: true })
    expect(s.waiting).toBe(true)
    s = follow(s, { type: 'TRACK_ERROR', problem: { key: 'error.network' } })
    expect(s).toMatchObject({ waiting: false, problem: { key: 'error.network' }, attempt: 0 })
    s = follow(s, { type: 'RETRY' })
    expect(s).toMatchObject({ problem: undefined, attempt: 1 })
    // A retry without a problem is nothing (a double click starts one poll).
    expect(follow(s, { type: 'RETRY' })).toBe(s)
    s = follow(s, { type: 'ELSEWHERE', tab: 'elsewhere' })
    expect(s.tab).toBe('elsewhere')
    expect(follow(s, { type: 'ELSEWHERE', tab: 'elsewhere' })).toBe(s)
  })

  it('a status that arrives clears the waiting and the problem', () => {
    expect(tracked({ attempt: 2, waiting: true, problem: { key: 'error.server' } })).toEqual({ attempt: 2, waiting: false, problem: undefined })
    const calm = { attempt: 0 }
    expect(tracked(calm)).toBe(calm)
  })

  it('names its events', () => {
    expect(['WAITING', 'TRACK_ERROR', 'RETRY', 'ELSEWHERE'].every((type) => isFollowEvent({ type }))).toBe(true)
    expect(isFollowEvent({ type: 'TRACK' })).toBe(false)
  })
})

describe('quote-with-expiry sub-machine', () => {
  it('judges a quote as it comes: expired, too far, unreadable, or usable', () => {
    expect(staleness(iso(-1), NOW)).toBe('expired')
    expect(staleness(iso(0), NOW)).toBe('expired')
    expect(staleness('not a date', NOW)).toBe('expired')
    expect(staleness(iso(3_600_001), NOW)).toBe('far')
    expect(staleness(iso(60_000), NOW)).toBeUndefined()
    expect(staleness(undefined, NOW)).toBeUndefined()
    expect(isExpired(iso(0), NOW)).toBe(true)
    expect(isExpired(undefined, NOW)).toBe(false)
  })

  it('EXPIRED re-quotes while idle and never under a buyer who is mid-way', () => {
    const state = { work: 'idle', ...priced({ type: 'QUOTED', quote: { id: 'q1' }, at: NOW }, false) }
    const requote = (_s: typeof state, refreshed: boolean) => ({ requoting: true, refreshed })
    expect(requoteOn(state, { type: 'EXPIRED' }, requote)).toEqual({ requoting: true, refreshed: true })
    const busy = { ...state, work: 'sending' }
    expect(requoteOn(busy, { type: 'EXPIRED' }, requote)).toBe(busy)
    // REQUOTE is for a price that could not be used, at the buyer's request.
    expect(requoteOn(state, { type: 'REQUOTE' }, requote)).toBe(state)
    expect(requoteOn({ ...state, stale: 'far' }, { type: 'REQUOTE' }, requote)).toEqual({ requoting: true, refreshed: false })
    expect(requoteOn(state, { type: 'CONFIRM' }, requote)).toBeUndefined()
  })

  it('the expiry effect fires EXPIRED at expiresAt, and not after it is stopped', async () => {
    const clock = createFakeClock(NOW)
    const seen: string[] = []
    const effect = expiryEffect(NOW, iso(30_000), clock, (e) => seen.push(e.type))
    expect(effect.key).toBe(`expiry:${NOW}`)
    const stop = effect.start(() => true, new AbortController().signal)
    await clock.advance(29_999)
    expect(seen).toEqual([])
    await clock.advance(1)
    expect(seen).toEqual(['EXPIRED'])
    const again = expiryEffect(NOW, iso(60_000), clock, (e) => seen.push(e.type)).start(() => true, new AbortController().signal)
    ;(again as () => void)()
    await clock.advance(60_000)
    expect(seen).toEqual(['EXPIRED'])
    expect(typeof stop).toBe('function')
  })

  it('a far expiry never overflows the timer into firing at once', async () => {
    const clock = createFakeClock(NOW)
    const seen: string[] = []
    expiryEffect(NOW, iso(30 * 86_400_000), clock, (e) => seen.push(e.type)).start(() => true, new AbortController().signal)
    await clock.advance(1000)
    expect(seen).toEqual([])
  })
})
