// A simulated clock for the reconciler's tests and the kit's bench (scripts/bench-kit/reconciler.mjs):
// time moves only when every actor (each loop of each reconciler, the test or the bench's world)
// sleeps, and then jumps to the earliest wake-up. Whatever an actor awaits besides the clock (the
// database, the sandbox over HTTP) takes no simulated time. Set `actors` to the number of loops
// that run: too few and time jumps while one is busy, too many and time stands still (`stalled`).
export function createSimulatedClock({ start = 0, actors = 1 } = {}) {
  let now = start
  let order = 0
  let checking = false
  const sleepers = new Set()
  const clock = {
    actors,
    /** How many times time moved. */
    jumps: 0,
    now: () => now,
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.resolve()
      return new Promise((resolve) => {
        const sleeper = {
          at: now + Math.max(0, Number.isFinite(ms) ? ms : 0),
          order: order++,
          wake() {
            sleepers.delete(sleeper)
            signal?.removeEventListener('abort', sleeper.wake)
            resolve()
            check()
          },
        }
        signal?.addEventListener('abort', sleeper.wake, { once: true })
        sleepers.add(sleeper)
        check()
      })
    },
    /** Sleepers right now (for a stalled run's message). */
    get sleeping() {
      return sleepers.size
    },
  }
  // Once the event loop has turned (whatever was about to run has run), and only if every actor sleeps.
  function check() {
    if (checking) return
    checking = true
    setImmediate(() => {
      checking = false
      if (sleepers.size === 0 || sleepers.size < clock.actors) return
      let first
      for (const sleeper of sleepers) if (!first || sleeper.at < first.at || (sleeper.at === first.at && sleeper.order < first.order)) first = sleeper
      if (first.at > now) {
        now = first.at
        clock.jumps++
      }
      ;[...sleepers]
        .filter((s) => s.at <= now)
        .sort((a, b) => a.at - b.at || a.order - b.order)
        .forEach((s) => s.wake())
    })
  }
  return clock
}
