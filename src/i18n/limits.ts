// The limits in words: "SEPA Instant · usually instant · up to 100,000 EUR" (lib/limits.ts decides
// which entry applies; the keys arrive with the flows' English strings, shared/en-limits.ts).
import { formatAmount } from '../lib/decimal'
import { type LimitEntry, railName } from '../lib/limits'
import type { LimitsKey } from './shared/en-limits'
import { type Params, t } from './i18n'

export type Message = { key: LimitsKey; params?: Params }

export type LimitPieces = {
  /** A proper name ("SEPA Instant"): not translated. */
  rail: string
  settlement: Message
  /** null: no fixed ceiling (or no minimum), so nothing to say. */
  max: Message | null
  min: Message | null
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
  return t(message.key, message.params)
}

/** "SEPA Instant · usually instant · up to 100,000 EUR" (no ceiling: the last piece is left out). */
export function limitLine(entry: LimitEntry, locale: string): string {
  const pieces = describeLimit(entry, locale)
  return [pieces.rail, limitText(pieces.settlement), pieces.max && limitText(pieces.max)].filter(Boolean).join(' · ')
}
