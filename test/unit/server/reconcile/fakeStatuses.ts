// The service's status endpoints as the reconciler sees them: a status per payment that the test
// moves on, and every request counted with its time.
import type { FetchStatus } from '../../../../src/server/index'

export type FakeStatuses = {
  fetchStatus: FetchStatus
  set(kind: string, id: string, status: string, extra?: Record<string, unknown>): void
  requests: Array<{ at: number; kind: string; id: string }>
}

export function fakeStatuses(): FakeStatuses {
  const current = new Map<string, Record<string, unknown>>()
  const requests: FakeStatuses['requests'] = []
  return {
    requests,
    set(kind, id, status, extra = {}) {
      current.set(`${kind}:${id}`, { id, status, ...extra })
    },
    async fetchStatus(kind, id) {
      requests.push({ at: Date.now(), kind, id })
      const record = current.get(`${kind}:${id}`)
      if (!record) throw new Error(`no such ${kind} ${id}`)
      return { ...record }
    },
  }
}

/** The most requests that started within any window of `windowMs`. */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= windowMs) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
