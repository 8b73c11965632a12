// What a beneficiary form is (partner-api.md: "Beneficiary"): the schemas offered, a schema's
// fields, and the words they show. The schemas themselves are beneficiarySchemas.ts.
import type { FieldProblem } from './fieldProblem'

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
