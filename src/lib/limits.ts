// Per-rail limits and settlement times (GET /v1/limits): which entry applies, and whether an amount
// fits it (decimal strings compared exactly; null is no limit). Their words: i18n/limits.ts.
import { compareDecimal } from './decimal'

/** One entry of GET /v1/limits, as the api's schema reads it (api/schemas-reference.ts). */
export type LimitEntry = {
  currency: string
  direction: string
  rail: string
  /** Decimal strings; null is no limit. */
  min: string | null
  max: string | null
  settlement: string
}

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

export type LimitCheck = { ok: true } | { ok: false; problem: 'below_min' | 'above_max'; limit: string; currency: string; rail: string }

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

/**
 * Where a payout over this rail lands: a stablecoin wallet, a mobile money wallet (M-Pesa, MTN MoMo,
 * Airtel Money…), or a bank account. The screens say it in those words, never "the bank" for all.
 */
export function railKind(rail: string): 'bank' | 'mobile' | 'wallet' {
  const r = rail.toLowerCase()
  if (r === 'stablecoin') return 'wallet'
  return /pesa|momo|mobile|money/.test(r) ? 'mobile' : 'bank'
}
