// Per-rail limits and settlement times (GET /v1/limits): which entry applies, whether an amount
// fits it (decimal strings compared exactly; null is no limit), and the words for the screen.
import type { LimitEntry } from '../api/reference'
import type { LimitsKey } from '../i18n/en-bankDeposit'
import { type MessageKey, type Params, t } from '../i18n/i18n'
import { compareDecimal, formatAmount } from './decimal'

export type LimitDirection = 'pay_in' | 'payout'
export type LimitWanted = { currency: string; direction: LimitDirection; rail?: string }

/** The entries for a currency in a direction (`both` counts for either), of one rail if given. */
export function limitsFor(entries: readonly LimitEntry[], wanted: LimitWanted): LimitEntry[] {
  const currency = wanted.currency.toUpperCase()
  return entries.filter(
    (e) => e.currency.toUpperCase() === currency && (e.direction === wanted.direction || e.direction === 'both') && (!wanted.rail || e.rail === wanted.rail),
  )
}

/** The one entry for a rail (a payout quote names its rail; so does a deposit once created). */
export function pickLimit(entries: readonly LimitEntry[], wanted: LimitWanted & { rail: string }): LimitEntry | undefined {
  return limitsFor(entries, wanted)[0]
}

export type LimitCheck =
  | { ok: true }
  | { ok: false; problem: 'below_min' | 'above_max'; limit: string; currency: string; rail: string }

/**
 * Whether a decimal amount fits. Given several entries (the rail is not chosen yet, the service
 * picks it), it fits when one of them takes it; otherwise the nearest bound is reported. No entry
 * at all is no known limit: the service still has the last word.
 */
export function checkAmount(amount: string, entries: LimitEntry | readonly LimitEntry[]): LimitCheck {
  const list: readonly LimitEntry[] = Array.isArray(entries) ? entries : [entries as LimitEntry]
  if (list.length === 0 || list.some((e) => fits(amount, e))) return { ok: true }
  const below = list.filter((e) => e.min !== null && compareDecimal(amount, e.min) < 0)
  const above = list.filter((e) => e.max !== null && compareDecimal(amount, e.max) > 0)
  // Above the largest ceiling, or in a gap between rails: the largest ceiling under the amount.
  const ceiling = above.reduce<LimitEntry | undefined>((best, e) => (!best || compareDecimal(e.max!, best.max!) > 0 ? e : best), undefined)
  if (ceiling) return { ok: false, problem: 'above_max', limit: ceiling.max!, currency: ceiling.currency, rail: ceiling.rail }
  const floor = below.reduce<LimitEntry>((best, e) => (compareDecimal(e.min!, best.min!) < 0 ? e : best), below[0])
  return { ok: false, problem: 'below_min', limit: floor.min!, currency: floor.currency, rail: floor.rail }
}

function fits(amount: string, e: LimitEntry): boolean {
  return (e.min === null || compareDecimal(amount, e.min) >= 0) && (e.max === null || compareDecimal(amount, e.max) <= 0)
}

export type Message = { key: LimitsKey; params?: Params }

export type LimitPieces = {
  /** A proper name ("SEPA Instant"): not translated. */
  rail: string
  settlement: Message
  /** null: no fixed ceiling (or no minimum), so nothing to say. */
  max: Message | null
  min: Message | null
}

const RAIL_NAMES: Readonly<Record<string, string>> = {
  sepa: 'SEPA',
  sepa_instant: 'SEPA Instant',
  sepa_credit: 'SEPA',
  faster_payments: 'Faster Payments',
  ach: 'ACH',
  ach_same_day: 'Same Day ACH',
  wire: 'Wire',
  fedwire: 'Fedwire',
  swift: 'SWIFT',
  pix: 'PIX',
  spei: 'SPEI',
  nip: 'NIP',
}

/** "sepa_instant" → "SEPA Instant"; an unknown rail reads from its name ("mobile_money" → "Mobile money"). */
export function railName(rail: string): string {
  const known = RAIL_NAMES[rail.toLowerCase()]
  if (known) return known
  const words = rail.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A settlement label (`instant`, `t+0`, `same_day`, `t+1`, `t+1..t+3`, `under_2h`) in words. */
export function settlementText(label: string): Message {
  const l = label.trim().toLowerCase()
  if (l === 'instant') return { key: 'limits.settlement.instant' }
  if (l === 't+0' || l === 'same_day') return { key: 'limits.settlement.sameDay' }
  if (l === 't+1') return { key: 'limits.settlement.nextDay' }
  let m = /^t\+(\d+)$/.exec(l)
  if (m) return { key: 'limits.settlement.days', params: { n: Number(m[1]) } }
  m = /^t\+(\d+)\s*(?:\.\.|-)\s*t\+(\d+)$/.exec(l)
  if (m) return { key: 'limits.settlement.range', params: { from: Number(m[1]), to: Number(m[2]) } }
  m = /^under_(\d+)h$/.exec(l)
  if (m) return { key: 'limits.settlement.underHours', params: { n: Number(m[1]) } }
  return { key: 'limits.settlement.other', params: { label } }
}

/** The pieces of "SEPA Instant · usually instant · up to 100,000 EUR", amounts formatted for the locale. */
export function describeLimit(entry: LimitEntry, locale: string): LimitPieces {
  return {
    rail: railName(entry.rail),
    settlement: settlementText(entry.settlement),
    max: entry.max === null ? null : { key: 'limits.max', params: { amount: formatAmount(entry.max, locale, entry.currency) } },
    min: entry.min === null ? null : { key: 'limits.min', params: { amount: formatAmount(entry.min, locale, entry.currency) } },
  }
}

/** A limits message in the current locale (the keys arrive with the flow's English strings). */
export function limitText(message: Message): string {
  return t(message.key as string as MessageKey, message.params)
}

/** "SEPA Instant · usually instant · up to 100,000 EUR" (no ceiling: the last piece is left out). */
export function limitLine(entry: LimitEntry, locale: string): string {
  const pieces = describeLimit(entry, locale)
  return [pieces.rail, limitText(pieces.settlement), pieces.max && limitText(pieces.max)].filter(Boolean).join(' · ')
}

/** A failed check in words: "The largest transfer SEPA Instant takes is 100,000 EUR." */
export function limitProblem(check: Extract<LimitCheck, { ok: false }>, locale: string): Message {
  return {
    key: check.problem === 'below_min' ? 'limits.belowMin' : 'limits.aboveMax',
    params: { rail: railName(check.rail), amount: formatAmount(check.limit, locale, check.currency) },
  }
}
