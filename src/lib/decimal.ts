// Money stays a decimal string end to end; conversions go through bigint, never floats.

/** `ambiguous`: the other mark before exactly three digits ("1,500" where '.' is the mark): a decimal, or thousands? */
export type AmountProblem = 'empty' | 'format' | 'negative' | 'zero' | 'decimals' | 'ambiguous'

export type AmountResult = { ok: true; value: string } | { ok: false; problem: AmountProblem }

const PLAIN = /^\d*(?:\.\d*)?$/

/**
 * Parses what a buyer typed. Rules, in order:
 * surrounding spaces are trimmed; `decimalMark` is the decimal mark, and so is the other mark
 * when it is the only one and not before exactly three digits (then `ambiguous`: it could group
 * thousands, never guessed); a leading '-' is `negative`; anything but digits and one
 * decimal mark (exponents, spaces, letters, a bare '.') is `format`; more fraction digits than
 * `maxDecimals` is `decimals`; zero is `zero`. The value is normalised: no leading zeros, no
 * trailing fraction zeros, no trailing dot ("007.50" → "7.5", ".5" → "0.5").
 */
export function parseAmount(input: string, maxDecimals: number, decimalMark: '.' | ',' = '.'): AmountResult {
  let text = input.trim()
  if (text === '') return { ok: false, problem: 'empty' }
  if (text.startsWith('-')) return { ok: false, problem: 'negative' }
  // The other mark alone ("1,5" where '.' is the mark, "1.5" where ',' is) is a decimal mark unless
  // exactly three digits follow it, which could group thousands ("1.000" is one thousand in de):
  // that is asked, never guessed. Beside the locale's own mark it is a separator: refused.
  const other = decimalMark === ',' ? '.' : ','
  const parts = text.split(other)
  if (parts.length === 2 && !text.includes(decimalMark)) {
    if (/^\d{3}$/.test(parts[1])) return { ok: false, problem: 'ambiguous' }
    text = `${parts[0]}.${parts[1]}`
  } else if (parts.length > 2 || (parts.length === 2 && text.includes(decimalMark))) {
    return { ok: false, problem: 'format' }
  } else if (decimalMark === ',') {
    text = text.replace(',', '.')
  }
  if (!PLAIN.test(text) || text === '.') return { ok: false, problem: 'format' }
  const [whole = '', fraction = ''] = text.split('.')
  const trimmedFraction = fraction.replace(/0+$/, '')
  if (fraction.length > maxDecimals && trimmedFraction.length > maxDecimals) {
    return { ok: false, problem: 'decimals' }
  }
  const value = normalise(whole, trimmedFraction)
  if (value === '0') return { ok: false, problem: 'zero' }
  return { ok: true, value }
}

function normalise(whole: string, fraction: string): string {
  const w = whole.replace(/^0+(?=\d)/, '') || '0'
  return fraction ? `${w}.${fraction}` : w
}

const CANONICAL = /^\d+(?:\.\d+)?$/

export function isDecimalString(value: string): boolean {
  return CANONICAL.test(value)
}

/** "25.5" with 6 decimals → 25500000n. Throws on a non-decimal or over-precise value. */
export function toBaseUnits(value: string, decimals: number): bigint {
  if (!CANONICAL.test(value)) throw new Error(`not a decimal string: ${value}`)
  const [whole, fraction = ''] = value.split('.')
  const trimmed = fraction.replace(/0+$/, '')
  if (trimmed.length > decimals) throw new Error(`more than ${decimals} decimals: ${value}`)
  return BigInt(whole + trimmed.padEnd(decimals, '0'))
}

/** 25500000n with 6 decimals → "25.5". */
export function fromBaseUnits(units: bigint, decimals: number): string {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return (negative ? '-' : '') + (fraction ? `${whole}.${fraction}` : whole)
}

/** The exact sum of two decimal strings. */
export function addDecimal(a: string, b: string): string {
  const scale = Math.max(fractionLength(a), fractionLength(b))
  return fromBaseUnits(toBaseUnits(a, scale) + toBaseUnits(b, scale), scale)
}

/** Compares two decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(fractionLength(a), fractionLength(b))
  const x = toBaseUnits(a, scale)
  const y = toBaseUnits(b, scale)
  return x < y ? -1 : x > y ? 1 : 0
}

function fractionLength(value: string): number {
  const dot = value.indexOf('.')
  return dot < 0 ? 0 : value.length - dot - 1
}

/**
 * Formats a decimal string for a locale without passing through a float, and without Intl's cap
 * on fraction digits (20, or 100): the whole part is grouped by Intl from a bigint, the fraction
 * is written digit by digit in the locale's digits. Trailing zeros are trimmed for display.
 */
export function formatAmount(value: string, locale: string, currency?: string): string {
  const [whole = '0', rawFraction = ''] = value.split('.')
  const fraction = rawFraction.replace(/0+$/, '')
  const format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })
  let text = /^-?\d+$/.test(whole) ? format.format(BigInt(whole)) : value
  if (fraction && /^\d+$/.test(fraction) && text !== value) {
    const digits = new Intl.NumberFormat(locale, { useGrouping: false })
    const mark = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
    text += mark + [...fraction].map((d) => digits.format(Number(d))).join('')
  }
  return currency ? `${text} ${currency}` : text
}

/** A canonical amount (a dot as the mark, as options carry it) as the buyer types it in this locale. */
export function localeAmount(value: string, decimalMark: '.' | ','): string {
  return decimalMark === ',' ? value.replace('.', ',') : value
}

/** The decimal mark of a locale, for amount inputs. */
export function decimalMarkOf(locale: string): '.' | ',' {
  const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')
  return part?.value === ',' ? ',' : '.'
}
