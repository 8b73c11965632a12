// The limiter's code is fetched with the first widget-path request (or once a flow's first screen
// is up: `preload`), not with the first screen. Until it is here nothing waits and nothing was
// sent, so its status is idle; a request waits for it, then goes through it like any other.
import { NetworkError } from '../errors/ApiError'
import type { LimiterStatus, RateLimiter } from './rateLimiter'

type Module = typeof import('./rateLimiter')

export function lazyLimiter(
  make: (module: Module) => RateLimiter,
  load: () => Promise<Module> = () => import('./rateLimiter'),
): RateLimiter & { preload(): void } {
  let limiter: RateLimiter | undefined
  let pending: Promise<RateLimiter> | undefined
  const listeners = new Set<(status: LimiterStatus) => void>()
  const get = () =>
    (pending ??= load().then(
      (module) => {
        limiter = make(module)
        limiter.subscribe((status) => {
          for (const listener of listeners) listener(status)
        })
        return limiter
      },
      (cause) => {
        pending = undefined
        throw new NetworkError(cause)
      },
    ))
  return {
    preload: () => void get().catch(() => {}),
    schedule: (run, priority) => (limiter ? limiter.schedule(run, priority) : get().then((l) => l.schedule(run, priority))),
    wake: () => limiter?.wake(),
    status: () => limiter?.status() ?? { waiting: false, retries: 0 },
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
