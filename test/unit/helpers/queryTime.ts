// query-core on a fake clock: its intervals, retry delays and notifications run when the test moves
// time, not on the wall clock. One provider is installed per test file (query-core warns when the
// provider changes); each test points it at its own clock.
import { environmentManager, notifyManager, timeoutManager } from '@tanstack/query-core'
import type { Clock } from '../../../src/kernel/types'

let current: Clock | undefined
const intervals = new Map<number, unknown>()
let nextInterval = 1
let installed = false

const clock = () => {
  if (!current) throw new Error('useFakeQueryTime(clock) first')
  return current
}

/**
 * Points query-core's timers at `fake` (and its notifications at the next macrotask, which settle()
 * drains), and has it schedule timers as in a browser.
 */
export function useFakeQueryTime(fake: Clock): void {
  current = fake
  intervals.clear()
  if (installed) return
  installed = true
  // Node has no window: query-core would take it for a server and schedule no refetch interval.
  environmentManager.setIsServer(() => false)
  notifyManager.setScheduler((cb) => void setImmediate(cb))
  timeoutManager.setTimeoutProvider({
    setTimeout: (cb, ms) => clock().setTimeout(() => cb(), ms) as number,
    clearTimeout: (id) => clock().clearTimeout(id),
    setInterval(cb, ms) {
      const id = nextInterval++
      const arm = () =>
        intervals.set(
          id,
          clock().setTimeout(() => (arm(), cb()), ms),
        )
      arm()
      return id
    },
    clearInterval(id) {
      if (id === undefined) return
      clock().clearTimeout(intervals.get(id as number))
      intervals.delete(id as number)
    },
  })
}
