// A deterministic clock for code that takes a `Clock` seam (rate limiter, polling).
// Time moves only through advance(); due timers run in order of due time, then creation, and
// pending promise callbacks are allowed to settle after each one.
import { expect } from 'vitest'
import type { Clock } from '../../../src/kernel/types'

type Timer = { id: number; at: number; fn: () => void }

export type FakeClock = Clock & {
  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advance(ms: number): Promise<void>
  /** Lets pending promise chains settle without moving time. */
  settle(): Promise<void>
  /** Number of timers still pending. */
  pending(): number
}

/** Drains microtasks and a few macrotask turns (Response bodies settle over several ticks). */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) {
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
}

export function createFakeClock(start = 0): FakeClock {
  let now = start
  let nextId = 1
  const timers: Timer[] = []

  function dueFirst(until: number): Timer | undefined {
    let best: Timer | undefined
    for (const t of timers) {
      if (t.at > until) continue
      if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t
    }
    return best
  }

  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++
      timers.push({ id, at: now + Math.max(0, ms), fn })
      return id
    },
    clearTimeout(id) {
      const i = timers.findIndex((t) => t.id === id)
      if (i >= 0) timers.splice(i, 1)
    },
    async advance(ms) {
      const target = now + ms
      await settle()
      for (;;) {
        const timer = dueFirst(target)
        if (!timer) break
        timers.splice(timers.indexOf(timer), 1)
        now = Math.max(now, timer.at)
        timer.fn()
        await settle()
      }
      now = target
      await settle()
    },
    settle: () => settle(),
    pending: () => timers.length,
  }
}

/**
 * Settles until `condition` holds (a lazily imported module, a chain of awaits), without moving
 * time; fails after `turns` rounds so a missing event is a clear failure, not a hang.
 */
export async function until(condition: () => boolean, what = 'the condition', turns = 40): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return
    await settle()
  }
  if (!condition()) throw new Error(`timed out waiting for ${what}`)
}

/** A poll at `intervalMs` on the fake clock: nothing more of `polls()` a millisecond before the interval, one more at it. */
export async function expectNextPollAfter(clock: FakeClock, polls: () => number, intervalMs: number) {
  const before = polls()
  await clock.advance(intervalMs - 1)
  expect(polls()).toBe(before)
  await clock.advance(1)
  expect(polls()).toBe(before + 1)
}
