// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { createPacer, type Clock } from '../../../../src/server/reconcile/pacer'

/** Time moves only when someone sleeps, and a sleep may overshoot by some ms (a busy event loop). */
function fakeClock(lateness: number[] = [0]): Clock & { t: number } {
  let sleeps = 0
  const clock = {
    t: 1000,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms + lateness[sleeps++ % lateness.length]
    },
  }
  return clock
}

describe('pacer', () => {
  it('starts requests at least 1/rate apart, counted from when each actually started', async () => {
    const clock = fakeClock([40, 0])
    const pacer = createPacer(4, clock)
    const starts: number[] = []
    for (let i = 0; i < 6; i++) {
      await pacer.turn()
      starts.push(clock.now())
    }
    const gaps = starts.slice(1).map((t, i) => t - starts[i])
    expect(gaps.every((gap) => gap >= 250)).toBe(true)
    expect(starts[0]).toBe(1000) // the first goes at once
  })

  it('keeps the spacing between callers that ask at the same time', async () => {
    const clock = fakeClock()
    const pacer = createPacer(10, clock)
    const starts: number[] = []
    await Promise.all(Array.from({ length: 5 }, () => pacer.turn().then(() => starts.push(clock.now()))))
    expect(starts).toEqual([1000, 1100, 1200, 1300, 1400])
  })

  it('holds every request until the moment the service named', async () => {
    const clock = fakeClock()
    const pacer = createPacer(10, clock)
    await pacer.turn()
    pacer.holdUntil(clock.now() + 5000)
    await pacer.turn()
    expect(clock.now()).toBe(6000)
  })

  it('refuses a rate that is not a positive number', () => {
    for (const rate of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => createPacer(rate)).toThrow(/positive/)
  })
})
