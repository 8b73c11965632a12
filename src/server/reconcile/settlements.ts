// The rails' settlement times as the service states them (GET /v1/limits): read through the key
// (one request of the reconciler's share) when a payment needs them, again once an hour has passed,
// and five minutes after a read that failed; the last good answer is kept meanwhile.
import { type LimitEntry, limits as limitsAnswer } from '../../api/schemas-reference'
import { describe } from '../describe'
import { StatusFetchError } from './status'

export type Settlements = {
  /** Reads the limits when the last read is due again (a request of the reconciler's share). */
  refresh(signal: AbortSignal): Promise<void>
  current(): readonly LimitEntry[] | undefined
}

export type SettlementsOptions = {
  /** Asks GET /v1/limits (createStatusFetcher's `limits`); without it, no rail's settlement is known. */
  fetchLimits?: () => Promise<unknown>
  now(): number
  /** Waits for the reconciler's turn at the key's rate. */
  turn(signal: AbortSignal): Promise<void>
  rateLimited(retryAfterMs?: number): void
  log(line: string): void
  refreshMs?: number
  retryMs?: number
}

export function createSettlements({ fetchLimits, now, turn, rateLimited, log, refreshMs = 3_600_000, retryMs = 300_000 }: SettlementsOptions): Settlements {
  let known: readonly LimitEntry[] | undefined
  let dueAt = -Infinity
  return {
    current: () => known,
    async refresh(signal) {
      if (!fetchLimits || now() < dueAt) return
      await turn(signal)
      if (signal.aborted) return
      dueAt = now() + retryMs
      let answer: unknown
      try {
        answer = await fetchLimits()
      } catch (error) {
        if (error instanceof StatusFetchError && error.retryAfterMs) rateLimited(error.retryAfterMs)
        log(`GET /v1/limits: ${describe(error)}; the rails' settlement times are read again in ${retryMs} ms`)
        return
      }
      const parsed = limitsAnswer.safeParse(answer)
      if (!parsed.success) {
        log(`GET /v1/limits: the answer does not match the contract (${parsed.error.issues[0]?.message}); read again in ${retryMs} ms`)
        return
      }
      known = parsed.data.limits
      dueAt = now() + refreshMs
    },
  }
}
