// Bank details for reading aloud and copying.

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00". */
export function groupIban(iban: string): string {
  return iban.replace(/\s+/g, '').toUpperCase().replace(/(.{4})(?=.)/g, '$1 ')
}

/** Basis points to a percentage string, exactly: 100 → "1", 25 → "0.25", 7.5 → "0.075". */
export function bpsToPercent(bps: number | string): string {
  const text = String(bps)
  if (!/^\d+(\.\d+)?$/.test(text)) throw new Error(`not a basis-point value: ${text}`)
  const [whole, fraction = ''] = text.split('.')
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '')
  const scale = fraction.length + 2
  const padded = digits.padStart(scale + 1, '0')
  const int = padded.slice(0, padded.length - scale).replace(/^0+(?=\d)/, '')
  const frac = padded.slice(padded.length - scale).replace(/0+$/, '')
  return frac ? `${int}.${frac}` : int
}
