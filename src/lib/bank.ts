// Bank details for reading aloud and copying.

/** "DE89370400440532013000" → "DE89 3704 0044 0532 0130 00". */
export function groupIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1 ')
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

/**
 * The details' shape follows the rail, and the contract names no keys but the reference: these
 * are the ones we label (IBAN and BIC for SEPA, account and sort code for UK rails, CLABE for SPEI,
 * a key or a QR payload for PIX). Every other field is kept, and every string one is shown.
 */
export const knownDetailKeys = [
  'reference',
  // In the order a banking app asks for them: the payee, then where the account is.
  'accountName',
  'iban',
  'bic',
  'swiftCode',
  'sortCode',
  'accountNumber',
  'routingNumber',
  'clabe',
  'pixKey',
  'pixPayload',
  'bankName',
] as const
export type KnownDetailKey = (typeof knownDetailKeys)[number]

/** Every non-empty string field of the details but the reference: the known ones in `knownDetailKeys` order, then the rest as sent. */
export function detailRows(details: Readonly<Record<string, unknown>>): Array<[string, string]> {
  const rank = (key: string) => {
    const i = (knownDetailKeys as readonly string[]).indexOf(key)
    return i < 0 ? knownDetailKeys.length : i
  }
  return Object.entries(details)
    .filter((entry): entry is [string, string] => entry[0] !== 'reference' && typeof entry[1] === 'string' && entry[1] !== '')
    .sort((a, b) => rank(a[0]) - rank(b[0]))
}
