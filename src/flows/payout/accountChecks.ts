// The formats of the beneficiary fields the contract names only in words (assumed-contract.md,
// "Bank payout"): what the buyer can be told before anything is sent. The service has the last
// word (a sort code's modulus tables, whether a PIX key is registered).
import type { FieldProblem, PlainProblem } from './fieldProblem'

const problem = (kind: PlainProblem['kind']): FieldProblem => ({ kind })

/** SPEI's control digit: each of the first 17 digits times 3, 7, 1 (repeating), mod 10, summed; 10 minus the sum, mod 10. */
export function clabeCheckDigit(first17: string): number {
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * [3, 7, 1][i % 3]) % 10
  return (10 - (sum % 10)) % 10
}

export function checkClabe(value: string): FieldProblem | undefined {
  if (!/^\d{18}$/.test(value)) return problem('clabeFormat')
  return clabeCheckDigit(value) === Number(value[17]) ? undefined : problem('clabeChecksum')
}

/**
 * The Receita Federal's mod 11 on the last two digits: each digit before one times its weight
 * counted from the right (2, 3, … and, for a CNPJ, back to 2 after 9); the digit is the sum's
 * remainder taken from 11, 0 when that is 10 or 11. One digit repeated passes and is never issued.
 */
function mod11(value: string, wrap: number): boolean {
  if (/^(\d)\1*$/.test(value)) return false
  for (const n of [value.length - 2, value.length - 1]) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += Number(value[i]) * (((n - 1 - i) % wrap) + 2)
    if (((sum * 10) % 11) % 10 !== Number(value[n])) return false
  }
  return true
}

export const checkCpf = (value: string) => (mod11(value, 10) ? undefined : problem('cpfChecksum'))
export const checkCnpj = (value: string) => (mod11(value, 8) ? undefined : problem('cnpjChecksum'))

const EVP = /^[\da-f]{8}(-[\da-f]{4}){3}-[\da-f]{12}$/

/** A PIX key as the DICT holds it: an e-mail or random key in small letters, a phone as +55…, a CPF or CNPJ as digits. */
export function normalisePixKey(raw: string): string {
  const value = raw.trim()
  if (value.includes('@') || EVP.test(value.toLowerCase())) return value.toLowerCase()
  return /^[\d\s()./+-]+$/.test(value) ? (value[0] === '+' ? '+' : '') + value.replace(/\D/g, '') : value
}

export function checkPixKey(value: string): FieldProblem | undefined {
  if (value.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : problem('pixKey')
  if (EVP.test(value)) return undefined
  if (value[0] === '+') return /^\+55[1-9]{2}\d{8,9}$/.test(value) ? undefined : problem('pixPhone')
  if (/^\d{11}$/.test(value)) return checkCpf(value)
  if (/^\d{14}$/.test(value)) return checkCnpj(value)
  return problem('pixKey')
}

export const checkSortCode = (value: string) => (/^\d{6}$/.test(value) ? undefined : problem('sortCode'))
export const checkUkAccount = (value: string) => (/^\d{8}$/.test(value) ? undefined : problem('ukAccount'))

/**
 * A phone number as typed ("+254 712 345 678", "(0803) 123-4567", "00254…") as + and digits; a
 * leading 00 is the international prefix. "+234 (0)803…" writes the trunk prefix that is never
 * dialled after the country code: it goes, or the number would name another wallet.
 */
export function normalisePhone(raw: string): string {
  const value = raw.replace(/\(\s*0\s*\)|[\s().-]/g, '')
  return value.startsWith('00') ? `+${value.slice(2)}` : value
}

/** ITU-T E.164: +, a country code that does not start with 0, at most 15 digits in all. */
export const checkE164 = (value: string) => (/^\+[1-9]\d{6,14}$/.test(value) ? undefined : problem('phone'))
