// When the reconciler looks at a payment next (issue 37): from what its status waits on (the
// buyer, the service's own work, the rail), how long it has waited, and the rail's settlement time
// as the service states it (GET /v1/limits). Soon after creation and after each change, densest
// where the next move is expected, rarely before it, and further apart the later it is. Pure.
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

/** The first look after creation, or after a change. */
const FIRST = 10 * S
/** Looks spread over the window where the next move is expected: a twelfth of it apart (15 s to 2 h). */
const PER_WINDOW = 12
const DENSEST = 15 * S
const SPARSEST = 2 * H
/** Before the window: each look three times as far as the time waited so far (at least 30 min), landing on its start. */
const BEFORE = 30 * MIN
/** Past the window, the wait grows with the lateness, up to this. */
const LATEST = 6 * H

type Window = { from: number; to: number }

/** What a status waits on, as the window after it was first seen in which its next move is expected. */
export function windowOf(kind: PaymentKind, status: string, settlement: string | undefined): Window | undefined {
  const rail = settlementWindow(settlement)
  switch (kind) {
    case 'card':
      // pending: the buyer on the card page; processing: the card provider.
      return status === 'pending' ? { from: 0, to: 30 * MIN } : status === 'processing' ? { from: 0, to: 10 * MIN } : undefined
    case 'bankDeposit':
      // The buyer's own bank transfer, then the rail carrying it; once received, the service converts.
      if (status === 'awaiting_funds') return { from: 0, to: 2 * H + (rail?.to ?? 0) }
      if (status === 'received' || status === 'converting') return { from: 0, to: 15 * MIN }
      // Past its expiry only money already sent still lands (expired → received).
      if (status === 'expired') return { from: 0, to: rail?.to ?? D }
      return undefined
    case 'payout':
    case 'cardPayout':
      // pending: the buyer's funding transfer; converting: the service; sent: the rail (a card:
      // "minutes to several working days", partner-api.md), which the kit knows only for a bank payout.
      if (status === 'pending') return { from: 0, to: H }
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
  // A status the kit cannot place: back off while nothing moves, as the fixed pace does, up to an hour.
  if (!window) return Math.min(H, 5 * S * 2 ** unchangedLooks)
  const waited = Math.max(0, now - lastChangeAt)
  const spacing = clamp((window.to - window.from) / PER_WINDOW, DENSEST, SPARSEST)
  if (waited < window.from) return Math.min(Math.max(3 * waited, BEFORE), window.from - waited)
  if (waited <= window.to) return clamp(waited, FIRST, spacing)
  return clamp(waited - window.to, spacing, LATEST)
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
 * (a weekend makes a t+1 late: it is then looked at further apart, not lost). Unknown: undefined.
 */
export function settlementWindow(label: string | undefined): Window | undefined {
  if (!label) return undefined
  if (label === 'instant') return { from: 0, to: 5 * MIN }
  if (label === 't+0' || label === 'same_day') return { from: 0, to: 12 * H }
  const under = /^under_(\d+)(m|h|d)$/.exec(label)
  if (under) return { from: 0, to: Number(under[1]) * { m: MIN, h: H, d: D }[under[2] as 'm' | 'h' | 'd'] }
  const days = /^t\+(\d+)(?:\.\.t\+(\d+))?$/.exec(label)
  if (!days) return undefined
  const [first, last] = [Number(days[1]), Number(days[2] ?? days[1])]
  if (last < first) return undefined
  return { from: Math.max(0, first * D - 12 * H), to: last * D + 12 * H }
}

/**
 * The settlement label that applies to a payment: a bank payout's rail as its status record names
 * it, else the slowest rail of its currency (the direction it moves); a bank deposit's, the slowest
 * pay-in rail of its currency. No rail of GET /v1/limits carries a card or a crypto deposit.
 */
export function settlementOf(kind: PaymentKind, record: unknown, currency: string | null | undefined, limits: readonly LimitEntry[] | undefined): string | undefined {
  if (!limits || (kind !== 'payout' && kind !== 'bankDeposit')) return undefined
  const seen = (record ?? {}) as { rail?: unknown; fiatCurrency?: unknown }
  const inCurrency = typeof seen.fiatCurrency === 'string' ? seen.fiatCurrency : (currency ?? undefined)
  if (kind === 'payout' && typeof seen.rail === 'string') {
    const rail = limits.find((entry) => entry.rail === seen.rail && (inCurrency === undefined || entry.currency === inCurrency))
    if (rail) return rail.settlement
  }
  if (inCurrency === undefined) return undefined
  const direction = kind === 'payout' ? 'payout' : 'pay_in'
  const labels = limits.filter((entry) => entry.currency === inCurrency && (entry.direction === direction || entry.direction === 'both')).map((entry) => entry.settlement)
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

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))
