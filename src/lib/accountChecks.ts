// A beneficiary field's checks (IBAN, ABA, SWIFT, an EVM address's form, and the ones the contract
// names only in words, assumed-contract.md "Bank payout"): what the buyer can be told before anything
// is sent, and what a check finds (FieldProblem), with the numbers its words take. The payout flow
// runs them (its form's fields, flows/payout/beneficiarySchemas.ts) and errors/payoutWords.ts words
// what they find; both read it here, in the layer below each. The service has the last word (a sort
// code's modulus tables, whether a PIX key is registered). An EVM address's EIP-55 checksum is
// checked where the request is built (flows/payout/bank.ts, with viem's keccak).
import { isCountryCode } from './country'

export type FieldProblem =
  | {
      kind:
        | 'required'
        | 'choose'
        | 'country'
        | 'currency'
        | 'refused'
        | 'ibanFormat'
        | 'ibanChecksum'
        | 'routingFormat'
        | 'routingChecksum'
        | 'swift'
        | 'evmAddress'
        | 'evmChecksum'
        | 'evmZero'
        | 'sortCode'
        | 'ukAccount'
        | 'clabeFormat'
        | 'clabeChecksum'
        | 'cpfChecksum'
        | 'cnpjChecksum'
        | 'pixKey'
        | 'pixPhone'
        | 'phone'
    }
  | { kind: 'tooLong' | 'accountText'; max: number }
  | { kind: 'accountDigits'; min: number; max: number }
  | { kind: 'ibanCountry'; country: string }
  | { kind: 'ibanLength'; country: string; length: number; actual: number }
/** A problem said without numbers. */
export type PlainProblem = Exclude<FieldProblem, { max: number } | { country: string }>

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

/**
 * The IBAN prefixes of the SEPA area and the IBAN length of each (ISO 13616 registry). Territories
 * without their own prefix use their country's (FR for Réunion, GB for Jersey). AL, MD, ME and MK
 * are the scheme's newest members; the service has the last word on reach in any case.
 */
export const SEPA_IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AL: 28,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
}

export function checkIban(iban: string): FieldProblem | undefined {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) return { kind: 'ibanFormat' }
  const country = iban.slice(0, 2)
  const length = SEPA_IBAN_LENGTHS[country]
  if (length === undefined) return { kind: 'ibanCountry', country }
  if (iban.length !== length) return { kind: 'ibanLength', country, length, actual: iban.length }
  return ibanMod97(iban) === 1 ? undefined : { kind: 'ibanChecksum' }
}

/** ISO 13616: the first four characters moved to the end, letters as 10–35, the number mod 97. */
export function ibanMod97(iban: string): number {
  let rest = 0
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const code = char.charCodeAt(0)
    const digits = code >= 65 ? String(code - 55) : char
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97
  }
  return rest
}

/** ABA: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10; the prefix is a Federal Reserve range. */
export function checkRouting(routing: string): FieldProblem | undefined {
  if (!/^\d{9}$/.test(routing)) return { kind: 'routingFormat' }
  const prefix = Number(routing.slice(0, 2))
  const validPrefix = prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
  const d = [...routing].map(Number)
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])
  return validPrefix && sum % 10 === 0 ? undefined : { kind: 'routingChecksum' }
}

/** ISO 9362: bank (4 letters), country (2 letters), location (2), and optionally a branch (3). */
export function checkSwift(code: string): FieldProblem | undefined {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(code) ? undefined : { kind: 'swift' }
}

/** 0x and 40 hex digits, not the zero address (no key spends from it). */
export function checkEvmForm(value: string): FieldProblem | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return problem('evmAddress')
  return /^0x0{40}$/.test(value) ? problem('evmZero') : undefined
}

export const checkCountry = (value: string) => (isCountryCode(value) ? undefined : problem('country'))
export const checkCurrency = (value: string) => (/^[A-Z]{3}$/.test(value) ? undefined : problem('currency'))
