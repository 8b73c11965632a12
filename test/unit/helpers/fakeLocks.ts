// Web Locks (navigator.locks) for one tab, with other tabs played by the test: `holdElsewhere(name)`
// takes a lock as another tab would, and returns how to let it go.
import { vi } from 'vitest'

type Waiter = () => void

export function fakeLocks() {
  const held = new Set<string>()
  const queue = new Map<string, Waiter[]>()
  const release = (name: string) => {
    held.delete(name)
    queue.get(name)?.shift()?.()
  }
  const acquire = (name: string) =>
    new Promise<void>((resolve) => {
      if (!held.has(name)) return (held.add(name), resolve())
      queue.set(name, [...(queue.get(name) ?? []), () => (held.add(name), resolve())])
    })
  const locks = {
    async request<T>(name: string, ...args: unknown[]): Promise<T> {
      const options = (args.length > 1 ? args[0] : {}) as { ifAvailable?: boolean }
      const work = args[args.length - 1] as (lock: unknown) => Promise<T> | T
      if (options.ifAvailable && held.has(name)) return work(null)
      await acquire(name)
      try {
        return await work({ name })
      } finally {
        release(name)
      }
    },
  }
  return {
    locks,
    /** Installs them as navigator.locks until vi.unstubAllGlobals(). */
    install: () => vi.stubGlobal('navigator', { locks }),
    held: (name: string) => held.has(name),
    holdElsewhere(name: string): () => void {
      void acquire(name)
      return () => release(name)
    },
  }
}
