// The quote-with-expiry sub-machine every priced flow composes: a quote arrives (QUOTED) or fails
// (QUOTE_FAILED); its expiry fires EXPIRED, which re-quotes while the buyer is idle and never
// under a buyer who is mid-way; REQUOTE is the buyer asking a new price.
import type { Effect } from './effects'
import type { Clock, Problem } from './types'

/** A quote that cannot be used as it came: expired on arrival, or valid for longer than we trust. */
export type Stale = 'expired' | 'far'

export type QuoteEvent<Q> =
  | { type: 'QUOTED'; quote: Q; at: number; stale?: Stale }
  | { type: 'QUOTE_FAILED'; problem: Problem }
  | { type: 'EXPIRED' }
  | { type: 'REQUOTE' }

/** What a state holding a price carries. `refreshed`: it replaced one that expired. */
export type Priced<Q> = { quote: Q; quotedAt: number; refreshed?: boolean; stale?: Stale }

/** The priced part of a state entered on QUOTED. */
export function priced<Q>(event: Extract<QuoteEvent<Q>, { type: 'QUOTED' }>, requote: boolean): Priced<Q> {
  return { quote: event.quote, quotedAt: event.at, refreshed: requote, stale: event.stale }
}

/** A quote longer valid than this is not trusted (prices move; a far expiry is a broken service). */
export const MAX_VALIDITY_MS = 3_600_000
const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** Whether a quote can be used as it came, judged by its `expiresAt` at `now`. */
export function staleness(expiresAt: string | undefined, now: number): Stale | undefined {
  if (!expiresAt) return undefined
  const at = Date.parse(expiresAt)
  if (!Number.isFinite(at) || at <= now) return 'expired'
  return at - now > MAX_VALIDITY_MS ? 'far' : undefined
}

export function isExpired(expiresAt: string | undefined, now: number): boolean {
  return !!expiresAt && Date.parse(expiresAt) <= now
}

/** Fires EXPIRED when the quote's `expiresAt` passes (nothing for a quote without one). */
export function expiryEffect(quotedAt: number, expiresAt: string | undefined, clock: Clock, dispatch: (event: { type: 'EXPIRED' }) => void): Effect {
  return {
    key: `expiry:${quotedAt}`,
    start: () => {
      if (!expiresAt) return
      const left = Math.min(MAX_TIMEOUT_MS, Math.max(0, Date.parse(expiresAt) - clock.now()))
      const timer = clock.setTimeout(() => dispatch({ type: 'EXPIRED' }), left)
      return () => clock.clearTimeout(timer)
    },
  }
}

/**
 * EXPIRED and REQUOTE in a state holding a price: re-quote while idle (EXPIRED), or when the buyer
 * asks for a price that could not be used (REQUOTE on a stale quote). Undefined: not this event.
 */
export function requoteOn<S extends Priced<unknown> & { work: string }, N>(
  state: S,
  event: { type: string },
  requote: (state: S, refreshed: boolean) => N,
): N | S | undefined {
  if (event.type === 'EXPIRED') return state.work === 'idle' ? requote(state, true) : state
  if (event.type === 'REQUOTE') return state.work === 'idle' && state.stale ? requote(state, false) : state
  return undefined
}
