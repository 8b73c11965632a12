// The payout's beneficiary (partner-api.md: "Beneficiary"): one form per schema whose fields the
// contract names. The service refuses a field its schema does not define, so what is sent is
// built from the schema's own field list, never from whatever the form holds.
import { railKind } from '../../lib/limits'
import { checkClabe, checkE164, checkPixKey, checkSortCode, checkUkAccount, normalisePhone, normalisePixKey } from './accountChecks'
import type { FieldProblem } from './fieldProblem'
import { isCountryCode } from '../../lib/country'

export type Values = Readonly<Record<string, string | undefined>>
/**
 * A word the form shows (a schema's name, a field's label or hint, an option): its key in the
 * beneficiary's catalog, i18n/en-beneficiary.ts, which the form's screen loads and says (a test
 * holds every one to that catalog; the machine's modules import no i18n).
 */
export type Word = `payout.${'schema' | 'field'}.${string}`

export type BeneficiaryField = {
  /** The name sent; a dotted one ("beneficiaryAddress.city") is a field of a nested object. */
  name: string
  label: Word
  hint?: Word
  required: boolean
  /** `select` offers `options`; `country` offers ISO 3166-1 alpha-2 codes (see lib/country.ts). */
  input: 'text' | 'select' | 'country'
  options?: ReadonlyArray<{ value: string; label: Word }>
  /** The value a new form starts with. */
  initial?: string
  autocomplete: string
  inputMode?: 'text' | 'numeric' | 'tel'
  autocapitalize?: 'characters' | 'words' | 'off'
  maxLength: number
  /** What is sent for what was typed: spaces out of an IBAN, capitals in a SWIFT code. */
  normalise: (raw: string) => string
  /** The normalised value's problem, if any (emptiness is checked before). */
  check?: (value: string) => FieldProblem | undefined
  /** What is sent for a valid value, when not the normalised one (an address with its checksum). */
  send?: (value: string) => string
}

/** The contract's nine; the field names of bank_uk, bank_br_pix, bank_mexico and momo_africa are assumed-contract.md's. */
export const offeredSchemas = ['bank_sepa', 'bank_uk', 'bank_us', 'bank_swift', 'bank_br_pix', 'bank_mexico', 'bank_africa', 'momo_africa', 'evm'] as const
export type OfferedSchemaId = (typeof offeredSchemas)[number]

export type BeneficiarySchema = {
  id: OfferedSchemaId
  label: Word
  fields: readonly BeneficiaryField[]
  /**
   * Whether the payout form offers the optional `purpose`. The contract says only that "some
   * corridors require it" without naming them, so it is never required here; it is offered on
   * international wires, which carry a remittance purpose.
   */
  purpose: boolean
}

/** What is sent as `beneficiary`: `name`, `schema`, and the schema's own fields only. */
export type Beneficiary = { name: string; schema: OfferedSchemaId } & Record<string, string | Record<string, string>>

const trim = (raw: string) => raw.trim().replace(/\s+/g, ' ')
const compact = (raw: string) => raw.replace(/\s+/g, '').toUpperCase()
const digitsOnly = (raw: string) => raw.replace(/[\s-]+/g, '')

type Spec = Partial<BeneficiaryField> & Pick<BeneficiaryField, 'name' | 'label'>
function field(spec: Spec): BeneficiaryField {
  return { required: true, input: 'text', autocomplete: 'off', maxLength: 256, normalise: trim, ...spec }
}

const accountTypes = [
  { value: 'individual', label: 'payout.field.accountType.individual' },
  { value: 'business', label: 'payout.field.accountType.business' },
] as const
const accountType = field({ name: 'accountType', label: 'payout.field.accountType', input: 'select', options: accountTypes, initial: 'individual' })
const holder = field({ name: 'name', label: 'payout.field.name', autocomplete: 'name', autocapitalize: 'words' })

function digits(min: number, max: number) {
  return (value: string): FieldProblem | undefined =>
    new RegExp(`^\\d{${min},${max}}$`).test(value) ? undefined : { kind: 'accountDigits', min, max }
}

const schemas: Record<OfferedSchemaId, BeneficiarySchema> = {
  bank_sepa: {
    id: 'bank_sepa',
    label: 'payout.schema.bank_sepa',
    purpose: false,
    fields: [
      holder,
      accountType,
      field({ name: 'firstName', label: 'payout.field.firstName', autocomplete: 'given-name', autocapitalize: 'words' }),
      field({ name: 'lastName', label: 'payout.field.lastName', autocomplete: 'family-name', autocapitalize: 'words' }),
      // The contract spells this field "IBAN", next to camelCase names.
      field({ name: 'IBAN', label: 'payout.field.iban', hint: 'payout.field.ibanHint', autocapitalize: 'characters', maxLength: 42, normalise: compact, check: checkIban }),
    ],
  },
  bank_us: {
    id: 'bank_us',
    label: 'payout.schema.bank_us',
    purpose: false,
    fields: [
      holder,
      field({ name: 'bankName', label: 'payout.field.bankName', autocapitalize: 'words' }),
      field({ name: 'accountName', label: 'payout.field.accountName', autocapitalize: 'words' }),
      field({ name: 'accountNumber', label: 'payout.field.accountNumber', inputMode: 'numeric', maxLength: 24, normalise: digitsOnly, check: digits(4, 17) }),
      field({ name: 'routingNumber', label: 'payout.field.routingNumber', hint: 'payout.field.routingNumberHint', inputMode: 'numeric', maxLength: 12, normalise: digitsOnly, check: checkRouting }),
      // The full address is required (a bank_us payout without it is refused). Its component names
      // are not shown in the contract: these are ours (README, "Assumptions").
      field({ name: 'beneficiaryAddress.street', label: 'payout.field.street', autocomplete: 'address-line1' }),
      field({ name: 'beneficiaryAddress.city', label: 'payout.field.city', autocomplete: 'address-level2', autocapitalize: 'words' }),
      field({ name: 'beneficiaryAddress.state', label: 'payout.field.state', autocomplete: 'address-level1', autocapitalize: 'characters' }),
      field({ name: 'beneficiaryAddress.postalCode', label: 'payout.field.postalCode', autocomplete: 'postal-code', maxLength: 16 }),
      field({ name: 'beneficiaryAddress.country', label: 'payout.field.country', input: 'country', autocomplete: 'country', initial: 'US', normalise: compact, check: checkCountry }),
    ],
  },
  bank_swift: {
    id: 'bank_swift',
    label: 'payout.schema.bank_swift',
    purpose: true,
    fields: [
      holder,
      accountType,
      field({ name: 'companyName', label: 'payout.field.companyName', autocomplete: 'organization' }),
      field({ name: 'bankName', label: 'payout.field.bankName', autocapitalize: 'words' }),
      field({ name: 'swiftCode', label: 'payout.field.swiftCode', hint: 'payout.field.swiftCodeHint', autocapitalize: 'characters', maxLength: 14, normalise: compact, check: checkSwift }),
      field({
        name: 'accountNumber',
        label: 'payout.field.accountNumber',
        autocapitalize: 'characters',
        maxLength: 42,
        normalise: compact,
        check: (value) => (/^[A-Z0-9]{1,34}$/.test(value) ? undefined : { kind: 'accountText', max: 34 }),
      }),
      field({ name: 'currency', label: 'payout.field.currency', initial: 'USD', autocapitalize: 'characters', maxLength: 3, normalise: compact, check: checkCurrency }),
    ],
  },
  bank_africa: {
    id: 'bank_africa',
    label: 'payout.schema.bank_africa',
    purpose: false,
    fields: [
      holder,
      field({ name: 'financialInstitutionId', label: 'payout.field.financialInstitutionId', hint: 'payout.field.financialInstitutionIdHint', maxLength: 64 }),
      field({ name: 'accountNumber', label: 'payout.field.accountNumber', inputMode: 'numeric', maxLength: 24, normalise: digitsOnly, check: digits(6, 20) }),
      field({ name: 'accountName', label: 'payout.field.accountName', autocapitalize: 'words' }),
    ],
  },
  bank_uk: {
    id: 'bank_uk',
    label: 'payout.schema.bank_uk',
    purpose: false,
    fields: [
      holder,
      field({ name: 'sortCode', label: 'payout.field.sortCode', inputMode: 'numeric', maxLength: 10, normalise: digitsOnly, check: checkSortCode }),
      field({ name: 'accountNumber', label: 'payout.field.accountNumber', inputMode: 'numeric', maxLength: 10, normalise: digitsOnly, check: checkUkAccount }),
    ],
  },
  bank_br_pix: {
    id: 'bank_br_pix',
    label: 'payout.schema.bank_br_pix',
    purpose: false,
    // The DICT's longest key is an e-mail of 77 characters.
    fields: [holder, field({ name: 'pixKey', label: 'payout.field.pixKey', hint: 'payout.field.pixKeyHint', autocapitalize: 'off', maxLength: 77, normalise: normalisePixKey, check: checkPixKey })],
  },
  bank_mexico: {
    id: 'bank_mexico',
    label: 'payout.schema.bank_mexico',
    purpose: false,
    fields: [holder, field({ name: 'clabe', label: 'payout.field.clabe', hint: 'payout.field.clabeHint', inputMode: 'numeric', maxLength: 24, normalise: digitsOnly, check: checkClabe })],
  },
  momo_africa: {
    id: 'momo_africa',
    label: 'payout.schema.momo_africa',
    purpose: false,
    // The contract names no operator field: the number alone identifies the wallet.
    fields: [
      holder,
      field({ name: 'walletIdentifier', label: 'payout.field.walletIdentifier', hint: 'payout.field.walletIdentifierHint', autocomplete: 'tel', inputMode: 'tel', maxLength: 24, normalise: normalisePhone, check: checkE164 }),
    ],
  },
  evm: {
    id: 'evm',
    label: 'payout.schema.evm',
    purpose: false,
    fields: [
      field({ name: 'name', label: 'payout.field.recipientName', autocomplete: 'name', autocapitalize: 'words' }),
      field({ name: 'address', label: 'payout.field.address', hint: 'payout.field.addressHint', autocapitalize: 'off', maxLength: 42, normalise: (raw) => raw.trim(), check: checkEvmAddress, send: checksumAddress }),
    ],
  },
}

export function beneficiarySchema(id: OfferedSchemaId): BeneficiarySchema {
  return schemas[id]
}

/** ISO 4217 codes of African currencies: the contract pairs "NGN and other African currencies" with bank_africa or momo_africa. */
const AFRICAN = 'AOA BIF BWP CDF CVE DJF DZD EGP ERN ETB GHS GMD GNF KES KMF LRD LSL LYD MAD MGA MRU MUR MWK MZN NAD NGN RWF SCR SDG SLE SOS SSP STN SZL TND TZS UGX XAF XOF ZAR ZMW ZWG'.split(' ')
const BY_CURRENCY: Readonly<Record<string, OfferedSchemaId>> = { EUR: 'bank_sepa', GBP: 'bank_uk', BRL: 'bank_br_pix', MXN: 'bank_mexico' }

/**
 * The schema a payout takes (assumed-contract.md: "Which schema serves a currency"): by the quote's
 * currency and country, the rail deciding where it says more (a stablecoin wallet, SWIFT, mobile
 * money). One at most: the service refuses beneficiary fields that do not match the quote's rail,
 * so mobile money is had by choosing its rail on the payout form, never on a bank rail's quote.
 * None when the contract pairs the currency with none.
 */
export function schemasFor({ currency, country }: { currency: string; country: string }, rail: string): OfferedSchemaId[] {
  const kind = railKind(rail)
  if (kind === 'wallet') return ['evm']
  if (rail.toLowerCase() === 'swift') return ['bank_swift']
  // mobile_money, mpesa, mtn_momo, airtel_money, orange_money…
  if (AFRICAN.includes(currency)) return [kind === 'mobile' ? 'momo_africa' : 'bank_africa']
  if (currency === 'USD') return [country === 'US' ? 'bank_us' : 'bank_swift']
  return BY_CURRENCY[currency] ? [BY_CURRENCY[currency]] : []
}

/** The schema the form shows: the buyer's own choice while it is still offered, else the likeliest. */
export function schemaFor(ask: { currency: string; country: string }, rail: string, current: OfferedSchemaId | undefined): OfferedSchemaId | undefined {
  const offered = schemasFor(ask, rail)
  return current && offered.includes(current) ? current : offered[0]
}

/** A new form's values: each field's `initial`. */
export function initialValues(schema: BeneficiarySchema): Record<string, string> {
  return Object.fromEntries(schema.fields.map((f) => [f.name, f.initial ?? '']))
}

/** Each field's problem, by field name; an empty object when the form can be sent. */
export function validateBeneficiary(schema: BeneficiarySchema, values: Values): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {}
  for (const f of schema.fields) {
    const problem = fieldProblem(f, values[f.name] ?? f.initial ?? '')
    if (problem) problems[f.name] = problem
  }
  return problems
}

function fieldProblem(f: BeneficiaryField, raw: string): FieldProblem | undefined {
  const value = f.normalise(raw)
  if (value === '') return f.required ? { kind: f.input === 'text' ? 'required' : 'choose' } : undefined
  if (value.length > f.maxLength) return { kind: 'tooLong', max: f.maxLength }
  if (f.options && !f.options.some((o) => o.value === value)) return { kind: 'choose' }
  return f.check?.(value)
}

export type BuildResult = { ok: true; beneficiary: Beneficiary } | { ok: false; problems: Record<string, FieldProblem> }

/**
 * The `beneficiary` to send: `name`, `schema`, and the schema's own fields, normalised. A value
 * under any other name (another schema's field left in the form) is dropped; an empty optional
 * field is left out rather than sent empty.
 */
export function buildBeneficiary(schema: BeneficiarySchema, values: Values): BuildResult {
  const problems = validateBeneficiary(schema, values)
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  const out: Record<string, string | Record<string, string>> = {}
  for (const f of schema.fields) {
    const value = f.normalise(values[f.name] ?? f.initial ?? '')
    if (value === '') continue
    const [outer, inner] = f.name.split('.')
    const sent = f.send ? f.send(value) : value
    if (inner === undefined) out[outer] = sent
    else out[outer] = { ...(out[outer] as Record<string, string> | undefined), [inner]: sent }
  }
  return { ok: true, beneficiary: { ...out, name: out.name as string, schema: schema.id } }
}

/** `purpose`, where the form offers it: optional, at most 512 characters. */
export function purposeProblem(raw: string): FieldProblem | undefined {
  return trim(raw).length > 512 ? { kind: 'tooLong', max: 512 } : undefined
}

// Checks

/**
 * The IBAN prefixes of the SEPA area and the IBAN length of each (ISO 13616 registry). Territories
 * without their own prefix use their country's (FR for Réunion, GB for Jersey). AL, MD, ME and MK
 * are the scheme's newest members; the service has the last word on reach in any case.
 */
export const SEPA_IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AL: 28, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24,
  FI: 18, FR: 27, GB: 22, GI: 23, GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20,
  LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MT: 31, NL: 18, NO: 15, PL: 28, PT: 25, RO: 24,
  SE: 24, SI: 19, SK: 24, SM: 27, VA: 22,
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

/** 0x and 40 hex digits, not the zero address (no key spends from it); a mixed-case address must match its EIP-55 checksum (one case carries none). */
export function checkEvmAddress(value: string): FieldProblem | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return { kind: 'evmAddress' }
  if (/^0x0{40}$/.test(value)) return { kind: 'evmZero' }
  const hexPart = value.slice(2)
  if (hexPart === hexPart.toLowerCase() || hexPart === hexPart.toUpperCase()) return undefined
  return checksumAddress(value) === value ? undefined : { kind: 'evmChecksum' }
}

/**
 * EIP-55: each letter of the address in capitals where the keccak-256 of its lowercase hex has a
 * nibble of 8 or more. Here rather than viem's getAddress, which would bring viem into the payout
 * flow's first load for one form field.
 */
export function checksumAddress(address: string): string {
  const hexPart = address.slice(2).toLowerCase()
  const hash = keccak256(new TextEncoder().encode(hexPart))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 15
    out += nibble >= 8 ? hexPart[i].toUpperCase() : hexPart[i]
  }
  return out
}

// Keccak-256 (the pre-SHA-3 padding Ethereum uses) on 64-bit lanes as bigints: small, and fast
// enough for an address typed into a form.
const MASK = (1n << 64n) - 1n
const rotl = (x: bigint, n: number) => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & MASK)
const ROUND_CONSTANTS: bigint[] = []
const ROTATIONS: number[] = new Array(25).fill(0)
{
  let r = 1
  for (let round = 0; round < 24; round++) {
    let rc = 0n
    for (let j = 0; j < 7; j++) {
      if (r & 1) rc |= 1n << BigInt((1 << j) - 1)
      r = r & 0x80 ? ((r << 1) ^ 0x171) & 0xff : r << 1
    }
    ROUND_CONSTANTS.push(rc)
  }
  let x = 1
  let y = 0
  for (let t = 0; t < 24; t++) {
    ROTATIONS[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64
    ;[x, y] = [y, (2 * x + 3 * y) % 5]
  }
}

function keccakF(a: bigint[]) {
  const c: bigint[] = new Array(5)
  const b: bigint[] = new Array(25)
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1)
      for (let y = 0; y < 25; y += 5) a[x + y] ^= d
    }
    for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROTATIONS[x + 5 * y])
    for (let i = 0; i < 25; i++) a[i] = b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * Math.floor(i / 5)] & MASK & b[(i % 5 + 2) % 5 + 5 * Math.floor(i / 5)])
    a[0] ^= rc
  }
}

export function keccak256(input: Uint8Array): Uint8Array {
  const rate = 136
  const padded = new Uint8Array(Math.floor(input.length / rate) * rate + rate)
  padded.set(input)
  padded[input.length] ^= 0x01
  padded[padded.length - 1] ^= 0x80
  const state: bigint[] = new Array(25).fill(0n)
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n
      for (let k = 7; k >= 0; k--) lane = (lane << 8n) | BigInt(padded[off + i * 8 + k])
      state[i] ^= lane
    }
    keccakF(state)
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((state[i >> 3] >> BigInt(8 * (i & 7))) & 0xffn)
  return out
}

function checkCountry(value: string): FieldProblem | undefined {
  return isCountryCode(value) ? undefined : { kind: 'country' }
}

function checkCurrency(value: string): FieldProblem | undefined {
  return /^[A-Z]{3}$/.test(value) ? undefined : { kind: 'currency' }
}
