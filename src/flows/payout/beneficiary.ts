// The payout's beneficiary (partner-api.md: "Beneficiary"): one form per schema whose fields the
// contract names. The service refuses a field its schema does not define, so what is sent is
// built from the schema's own field list (beneficiaryRequest.ts), never from whatever the form holds.
import { railKind } from '../../lib/limits'
import { checkClabe, checkCountry, checkCurrency, checkE164, checkEvmForm, checkIban, checkPixKey, checkRouting, checkSortCode, checkSwift, checkUkAccount, normalisePhone, normalisePixKey } from './accountChecks'
import type { FieldProblem } from './fieldProblem'

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
  /**
   * An EVM address: held to its EIP-55 checksum and sent with it where the request is built
   * (beneficiaryRequest.ts), so viem's keccak comes with the request, not with the form.
   */
  eip55?: true
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
      field({ name: 'address', label: 'payout.field.address', hint: 'payout.field.addressHint', autocapitalize: 'off', maxLength: 42, normalise: (raw) => raw.trim(), check: checkEvmForm, eip55: true }),
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

/** `purpose`, where the form offers it: optional, at most 512 characters. */
export function purposeProblem(raw: string): FieldProblem | undefined {
  return trim(raw).length > 512 ? { kind: 'tooLong', max: 512 } : undefined
}

