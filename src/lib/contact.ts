// Phone and e-mail as the banking partner wants them.

const E164 = /^\+[1-9]\d{6,14}$/

/**
 * E.164 from what a buyer types: spaces, dots, dashes and brackets are dropped, a leading "00"
 * becomes "+". Anything else that is not "+" and 7 to 15 digits is refused, never guessed at
 * (no country is assumed for a number without its code).
 */
export function normalisePhone(input: string): string | undefined {
  let text = input.trim().replace(/[\s.\-()]/g, '')
  if (text.startsWith('00')) text = `+${text.slice(2)}`
  return E164.test(text) ? text : undefined
}

export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())
}
