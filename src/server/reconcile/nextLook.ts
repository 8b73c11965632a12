// When the reconciler looks at a payment next (issue 37): from what its status waits on (the
// buyer, the service's own work, the rail), how long it has waited, and the rail's settlement time
// as the service states it (GET /v1/limits). Never longer apart than the fixed pace's longest wait
// (10 min) while a move is plausible, so that a change is told no later than the fixed pace tells
// it; the requests saved come from looking only hourly before a rail's window opens, a first look
// deferred while the buyer acts, and looks spread over a window rather than restarting at 5 s. Pure.
import type { LimitEntry } from '../../api/schemas-reference'
import type { PaymentKind } from '../store/kinds'

export type LookInput = {
  kind: PaymentKind
  /** The status last seen; null before any. */
  status: string | null
  createdAt: number
  /** When the status last changed (createdAt while it has not). */
  lastChangeAt: number
  /** The settlement label of the payment's rail (`instant`, `t+1`, …), when the kit knows its rail. */
  settlement?: string
  now: number
  /** Looks since the last change that found the same status, or no answer. */
  unchangedLooks: number
  /** Looks so far; 0 before the first. */
  looks: number
}

/** Milliseconds from `now` until the next look. */
export type Schedule = (input: LookInput) => number

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H

/** The first look after a change. */
const FIRST = 10 * S
/** The first look at a status that waits on the buyer (a card page, a funding transfer). */
const BUYER_FIRST = 30 * S
/** Looks spread over the window where the next move is expected: a twelfth of it apart (15 s to LONGEST). */
const PER_WINDOW = 12
const DENSEST = 15 * S
/** The longest wait while a move is plausible: the fixed pace's maxPollIntervalMs (default). */
export const LONGEST = 10 * MIN
/**
 * Before a rail's window opens (a `sent` on `t+1`), the status cannot settle yet: an hourly check
 * still catches a return or a rejection. Likewise past an expired bank deposit's window.
 */
const SPARSE = H

type Window = { from: number; to: number; first?: number }

/** What a status waits on, as the window after it was first seen in which its next move is expected. */
export function windowOf(kind: PaymentKind, status: string, settlement: string | undefined): Window | undefined {
  const rail = settlementWindow(settlement)
  switch (kind) {
    case 'card':
      // pending: the buyer on the card page; processing: the card provider.
      return status === 'pending' ? { from: 0, to: 30 * MIN, first: BUYER_FIRST } : status === 'processing' ? { from: 0, to: 10 * MIN } : undefined
    case 'bankDeposit':
      // The buyer's own bank transfer, then the rail carrying it; once received, the service converts.
      if (status === 'awaiting_funds') return { from: 0, to: 2 * H + (rail?.to ?? 0), first: BUYER_FIRST }
      if (status === 'received' || status === 'converting') return { from: 0, to: 15 * MIN }
      // Past its expiry only money already sent still lands (expired → received).
      if (status === 'expired') return { from: 0, to: rail?.to ?? D }
      return undefined
    case 'payout':
    case 'cardPayout':
      // pending: the buyer's funding transfer; converting: the service; sent: the rail (a card:
      // "minutes to several working days", partner-api.md), which the kit knows only for a bank payout.
      if (status === 'pending') return { from: 0, to: H, first: BUYER_FIRST }
      if (status === 'converting') return { from: 0, to: 15 * MIN }
      if (status === 'sent') return (kind === 'payout' && rail) || { from: 0, to: 5 * D }
      return undefined
    case 'deposit':
      // The routing layer delivering on the destination chain.
      return status === 'pending' ? { from: 0, to: 10 * MIN } : undefined
  }
}

/** The default schedule: see docs/server-store.md, "Following". */
export const nextLook: Schedule = ({ kind, status, lastChangeAt, settlement, now, unchangedLooks }) => {
  const window = status === null ? undefined : windowOf(kind, status, settlement)
  // A status the kit cannot place: back off while nothing moves, as the fixed pace does.
  if (!window) return Math.min(LONGEST, 5 * S * 2 ** unchangedLooks)
  const waited = Math.max(0, now - lastChangeAt)
  // Before the window: it cannot move yet but for a return or a rejection; hourly, landing on its start.
  if (waited < window.from) return Math.min(SPARSE, window.from - waited)
  const spacing = clamp((window.to - window.from) / PER_WINDOW, DENSEST, LONGEST)
  // In the window: as far as the wait so far (from the first look), up to its spacing; a window
  // that opens late starts at its spacing.
  if (waited <= window.to) return clamp(waited, window.first ?? FIRST, spacing)
  // Late: at the fixed pace's longest, but for an expired deposit, where nothing is in flight any more.
  return status === 'expired' ? SPARSE : LONGEST
}

/**
 * The reconciler's pace before issue 37, kept for comparison (the bench runs both): at once on a new
 * payment, `pollIntervalMs` after a change, then twice as long each time nothing moved, up to
 * `maxPollIntervalMs`, whatever the payment waits on.
 */
export function fixedPace({ pollIntervalMs = 5000, maxPollIntervalMs = 10 * MIN }: { pollIntervalMs?: number; maxPollIntervalMs?: number } = {}): Schedule {
  return ({ looks, unchangedLooks }) => {
    if (looks === 0) return 0
    return Math.min(maxPollIntervalMs, Math.max(pollIntervalMs, pollIntervalMs * 2 ** (unchangedLooks - 1)))
  }
}

/**
 * A settlement label of GET /v1/limits (or a quote's estimatedSettlement) as the window, after the
 * transfer leaves, in which it is expected to land. Business days are read as calendar days
 * (a weekend makes a t+1 late: it is then still looked at every 10 min, not lost). Unknown:
 * undefined, as is a label beyond LONGEST_LABEL days (a `t+36500` is a mistake, not a rail).
 */
export function settlementWindow(label: string | undefined): Window | undefined {
  if (!label) return undefined
  if (label === 'instant') return { from: 0, to: 5 * MIN }
  if (label === 't+0' || label === 'same_day') return { from: 0, to: 12 * H }
  const under = /^under_(\d+)(m|h|d)$/.exec(label)
  if (under) {
    const to = Number(under[1]) * { m: MIN, h: H, d: D }[under[2] as 'm' | 'h' | 'd']
    return to <= LONGEST_LABEL * D ? { from: 0, to } : undefined
  }
  const days = /^t\+(\d+)(?:\.\.t\+(\d+))?$/.exec(label)
  if (!days) return undefined
  const [first, last] = [Number(days[1]), Number(days[2] ?? days[1])]
  if (last < first || last > LONGEST_LABEL) return undefined
  return { from: Math.max(0, first * D - 12 * H), to: last * D + 12 * H }
}

/**
 * The settlement label that applies to a payment: a bank payout's rail as its status record names
 * it, else the slowest rail of its currency (the direction it moves); a bank deposit's, the slowest
 * pay-in rail of its currency. No rail of GET /v1/limits carries a card or a crypto deposit.
 */
export function settlementOf(
  kind: PaymentKind,
  record: unknown,
  currency: string | null | undefined,
  limits: readonly LimitEntry[] | undefined,
): string | undefined {
  if (!limits || (kind !== 'payout' && kind !== 'bankDeposit')) return undefined
  const seen = (record ?? {}) as { rail?: unknown; fiatCurrency?: unknown }
  const inCurrency = typeof seen.fiatCurrency === 'string' ? seen.fiatCurrency : (currency ?? undefined)
  if (kind === 'payout' && typeof seen.rail === 'string') {
    const rail = limits.find((entry) => entry.rail === seen.rail && (inCurrency === undefined || entry.currency === inCurrency))
    if (rail) return rail.settlement
  }
  if (inCurrency === undefined) return undefined
  const direction = kind === 'payout' ? 'payout' : 'pay_in'
  const labels = limits
    .filter((entry) => entry.currency === inCurrency && (entry.direction === direction || entry.direction === 'both'))
    .map((entry) => entry.settlement)
  return slowest(labels)
}

function slowest(labels: readonly string[]): string | undefined {
  let found: { label: string; to: number } | undefined
  for (const label of labels) {
    const to = settlementWindow(label)?.to ?? Infinity
    if (!found || to > found.to) found = { label, to }
  }
  return found?.label
}

/** The longest settlement read, in days (`t+10`, `under_10d`); beyond it, a label is unknown. */
const LONGEST_LABEL = 10

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))
