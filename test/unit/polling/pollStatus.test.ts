// Status polling on query-core, on a fake clock: the interval, the stop on a terminal status, the
// pause while the page is hidden, and retryable versus final errors.
import { QueryClient, focusManager } from '@tanstack/query-core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NetworkError } from '../../../src/errors/ApiError'
import { type PollOptions, pollStatus } from '../../../src/polling/pollStatus'
import { pollLater } from '../../../src/polling/pollLater'
import { type FakeClock, createFakeClock, until } from '../helpers/fakeClock'
import { useFakeQueryTime } from '../helpers/queryTime'

type Status = { status: 'pending' | 'done' }

let clock: FakeClock
let client: QueryClient
let stops: Array<() => void> = []

beforeEach(() => {
  clock = createFakeClock(0)
  useFakeQueryTime(clock)
  client = new QueryClient()
  client.mount()
})
afterEach(() => {
  for (const stop of stops) stop()
  stops = []
  client.unmount()
  focusManager.setFocused(undefined)
})

function poll(answers: Array<Status | Error>, options: Partial<PollOptions<Status>> = {}) {
  let n = 0
  const fetch = vi.fn(async () => {
    const answer = answers[Math.min(n++, answers.length - 1)]
    if (answer instanceof Error) throw answer
    return answer
  })
  const seen = { data: [] as Status[], errors: [] as unknown[], retrying: 0 }
  const stop = pollStatus<Status>({
    key: ['test-status', Math.random()],
    fetch,
    isTerminal: (s) => s.status === 'done',
    intervalMs: 1_000,
    onData: (s) => seen.data.push(s),
    onError: (e) => seen.errors.push(e),
    onRetrying: () => seen.retrying++,
    client,
    ...options,
  })
  stops.push(stop)
  return { fetch, seen, stop }
}

const pending: Status = { status: 'pending' }
const done: Status = { status: 'done' }

describe('pollStatus', () => {
  it('fetches at once, then every intervalMs, and stops on a terminal status', async () => {
    const p = poll([pending, { ...pending }, done])
    await until(() => p.seen.data.length === 1)
    await clock.advance(999)
    expect(p.fetch).toHaveBeenCalledTimes(1)
    await clock.advance(1)
    expect(p.fetch).toHaveBeenCalledTimes(2)
    await clock.advance(1_000)
    // An answer equal to the last one is not reported again (query-core keeps the same data).
    expect(p.seen.data.map((s) => s.status)).toEqual(['pending', 'done'])
    await clock.advance(60_000)
    expect(p.fetch).toHaveBeenCalledTimes(3)
    expect(clock.pending()).toBe(0)
  })

  it('asks intervalMs (a function) before each wait', async () => {
    let calls = 0
    const p = poll([pending], { intervalMs: () => (++calls, 500 * Math.min(calls, 2)) })
    await until(() => p.seen.data.length === 1)
    const before = p.fetch.mock.calls.length
    await clock.advance(5_000)
    expect(p.fetch.mock.calls.length).toBeGreaterThan(before)
    expect(calls).toBeGreaterThan(1)
  })

  it('is paused while the page is hidden, and fetches again when it shows', async () => {
    const p = poll([pending])
    await until(() => p.seen.data.length === 1)
    focusManager.setFocused(false)
    await clock.advance(10_000)
    expect(p.fetch).toHaveBeenCalledTimes(1)
    focusManager.setFocused(true)
    await until(() => p.fetch.mock.calls.length === 2, 'a fetch on showing')
  })

  it('a terminal status is not fetched again when the page shows', async () => {
    const p = poll([done])
    await until(() => p.seen.data.length === 1)
    focusManager.setFocused(false)
    focusManager.setFocused(true)
    await clock.advance(10_000)
    expect(p.fetch).toHaveBeenCalledTimes(1)
  })

  it('retryable trouble (network, 5xx, 429) is onRetrying with a doubling backoff (2 s, 4 s), then the data', async () => {
    const p = poll([new NetworkError('offline'), new ApiError(429, 'rate_limited', ''), pending])
    await until(() => p.seen.retrying === 1)
    await clock.advance(1_999)
    expect(p.fetch).toHaveBeenCalledTimes(1)
    await clock.advance(1)
    await until(() => p.fetch.mock.calls.length === 2)
    await clock.advance(3_999)
    expect(p.fetch).toHaveBeenCalledTimes(2)
    await clock.advance(1)
    await until(() => p.seen.data.length === 1)
    expect(p.seen.retrying).toBe(2)
    expect(p.seen.errors).toEqual([])
  })

  it('a final error (4xx) is onError, once, and the poll stops', async () => {
    const refused = new ApiError(400, 'invalid_request', 'no')
    const p = poll([refused])
    await until(() => p.seen.errors.length === 1)
    expect(p.seen.errors).toEqual([refused])
    await clock.advance(60_000)
    expect(p.fetch).toHaveBeenCalledTimes(1)
    expect(p.seen.retrying).toBe(0)
  })

  it('stop() ends the poll and forgets the query', async () => {
    const key = ['test-status', 'stopped']
    const p = poll([pending], { key })
    await until(() => p.seen.data.length === 1)
    p.stop()
    await clock.advance(10_000)
    expect(p.fetch).toHaveBeenCalledTimes(1)
    expect(client.getQueryCache().find({ queryKey: key })).toBeUndefined()
  })
})

describe('pollLater', () => {
  it('stopped before query-core has loaded: nothing is ever fetched', async () => {
    const fetch = vi.fn(async () => pending)
    const stop = pollLater<Status>({ key: ['later', 1], fetch, isTerminal: () => false, intervalMs: 1_000, onData: () => {}, onError: () => {}, client })
    stop()
    await clock.advance(5_000)
    expect(fetch).not.toHaveBeenCalled()
  })
})
