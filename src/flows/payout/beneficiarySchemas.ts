// The beneficiary's schemas (partner-api.md: "Beneficiary"): each one's form, field by field, with
// what is sent for what was typed and what is checked before anything is sent (lib/accountChecks.ts).
import {
  checkClabe,
  checkCountry,
  checkCurrency,
  checkE164,
  checkEvmForm,
  checkIban,
  checkPixKey,
  checkRouting,
  checkSortCode,
  checkSwift,
  checkUkAccount,
  normalisePhone,
  normalisePixKey,
} from '../../lib/accountChecks'
import type { OfferedSchemaId } from './base'
import type { BeneficiaryField, BeneficiarySchema, FieldProblem } from './destination'

export const trim = (raw: string) => raw.trim().replace(/\s+/g, ' ')
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
  return (value: string): FieldProblem | undefined => (new RegExp(`^\\d{${min},${max}}$`).test(value) ? undefined : { kind: 'accountDigits', min, max })
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
      field({
        name: 'IBAN',
        label: 'payout.field.iban',
        hint: 'payout.field.ibanHint',
        autocapitalize: 'characters',
        maxLength: 42,
        normalise: compact,
        check: checkIban,
      }),
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
      field({
        name: 'routingNumber',
        label: 'payout.field.routingNumber',
        hint: 'payout.field.routingNumberHint',
        inputMode: 'numeric',
        maxLength: 12,
        normalise: digitsOnly,
        check: checkRouting,
      }),
      // The full address is required (a bank_us payout without it is refused). Its component names
      // are not shown in the contract: these are ours (README, "Assumptions").
      field({ name: 'beneficiaryAddress.street', label: 'payout.field.street', autocomplete: 'address-line1' }),
      field({ name: 'beneficiaryAddress.city', label: 'payout.field.city', autocomplete: 'address-level2', autocapitalize: 'words' }),
      field({ name: 'beneficiaryAddress.state', label: 'payout.field.state', autocomplete: 'address-level1', autocapitalize: 'characters' }),
      field({ name: 'beneficiaryAddress.postalCode', label: 'payout.field.postalCode', autocomplete: 'postal-code', maxLength: 16 }),
      field({
        name: 'beneficiaryAddress.country',
        label: 'payout.field.country',
        input: 'country',
        autocomplete: 'country',
        initial: 'US',
        normalise: compact,
        check: checkCountry,
      }),
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
      field({
        name: 'swiftCode',
        label: 'payout.field.swiftCode',
        hint: 'payout.field.swiftCodeHint',
        autocapitalize: 'characters',
        maxLength: 14,
        normalise: compact,
        check: checkSwift,
      }),
      field({
        name: 'accountNumber',
        label: 'payout.field.accountNumber',
        autocapitalize: 'characters',
        maxLength: 42,
        normalise: compact,
        check: (value) => (/^[A-Z0-9]{1,34}$/.test(value) ? undefined : { kind: 'accountText', max: 34 }),
      }),
      field({
        name: 'currency',
        label: 'payout.field.currency',
        initial: 'USD',
        autocapitalize: 'characters',
        maxLength: 3,
        normalise: compact,
        check: checkCurrency,
      }),
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
    fields: [
      holder,
      field({
        name: 'pixKey',
        label: 'payout.field.pixKey',
        hint: 'payout.field.pixKeyHint',
        autocapitalize: 'off',
        maxLength: 77,
        normalise: normalisePixKey,
        check: checkPixKey,
      }),
    ],
  },
  bank_mexico: {
    id: 'bank_mexico',
    label: 'payout.schema.bank_mexico',
    purpose: false,
    fields: [
      holder,
      field({
        name: 'clabe',
        label: 'payout.field.clabe',
        hint: 'payout.field.clabeHint',
        inputMode: 'numeric',
        maxLength: 24,
        normalise: digitsOnly,
        check: checkClabe,
      }),
    ],
  },
  momo_africa: {
    id: 'momo_africa',
    label: 'payout.schema.momo_africa',
    purpose: false,
    // The contract names no operator field: the number alone identifies the wallet.
    fields: [
      holder,
      field({
        name: 'walletIdentifier',
        label: 'payout.field.walletIdentifier',
        hint: 'payout.field.walletIdentifierHint',
        autocomplete: 'tel',
        inputMode: 'tel',
        maxLength: 24,
        normalise: normalisePhone,
        check: checkE164,
      }),
    ],
  },
  evm: {
    id: 'evm',
    label: 'payout.schema.evm',
    purpose: false,
    fields: [
      field({ name: 'name', label: 'payout.field.recipientName', autocomplete: 'name', autocapitalize: 'words' }),
      field({
        name: 'address',
        label: 'payout.field.address',
        hint: 'payout.field.addressHint',
        autocapitalize: 'off',
        maxLength: 42,
        normalise: (raw) => raw.trim(),
        check: checkEvmForm,
        eip55: true,
      }),
    ],
  },
}

export function beneficiarySchema(id: OfferedSchemaId): BeneficiarySchema {
  return schemas[id]
}
