// A bank payout's destination step: the beneficiary (partner-api.md: "Beneficiary"), one form per
// schema whose fields the contract names (beneficiarySchemas.ts), checked before anything is sent;
// the payout is created once, under the reference of its request (bank.ts sends it). The service
// refuses a field its schema does not define, so what is sent is built from the schema's own field
// list (bank.ts), never from whatever the form holds. Pure.
import type { PayoutQuote } from '../../api/payout'
import { railKind } from '../../lib/limits'
import { type OfferedSchemaId, carried } from './base'
import { beneficiarySchema, trim } from './beneficiarySchemas'
import {
  type BeneficiaryField,
  type BeneficiarySchema,
  type BeneficiaryState,
  type DestinationEvent,
  type DestinationExit,
  type DestinationStep,
  type FieldProblem,
  answered,
  priceGone,
} from './destination'

export type Values = Readonly<Record<string, string | undefined>>

/** What is sent as `beneficiary`: `name`, `schema`, and the schema's own fields only. */
export type Beneficiary = { name: string; schema: OfferedSchemaId } & Record<string, string | Record<string, string>>

/** ISO 4217 codes of African currencies: the contract pairs "NGN and other African currencies" with bank_africa or momo_africa. */
const AFRICAN =
  'AOA BIF BWP CDF CVE DJF DZD EGP ERN ETB GHS GMD GNF KES KMF LRD LSL LYD MAD MGA MRU MUR MWK MZN NAD NGN RWF SCR SDG SLE SOS SSP STN SZL TND TZS UGX XAF XOF ZAR ZMW ZWG'.split(
    ' ',
  )
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

export const beneficiaryStep: DestinationStep = {
  kind: 'bank',
  enter(state) {
    // The bank's calls (bank.ts) price every bank payout: its quote names the rail.
    const quote = state.quote as PayoutQuote
    const { ask, draft } = state
    const schema = schemaFor(ask, quote.rail, draft.schema)
    const values = schema && schema !== draft.schema ? { ...initialValues(beneficiarySchema(schema)), ...draft.values } : draft.values
    return {
      ...carried(state),
      buyer: state.buyer,
      tag: 'beneficiary',
      ask,
      quote,
      quotedAt: state.quotedAt,
      draft: { ...draft, schema, values },
      problems: {},
      work: 'idle',
    }
  },
  transition: (state, event) => (state.tag === 'beneficiary' ? (answered(state, event) ?? beneficiary(state, event)) : state),
}

function beneficiary(state: BeneficiaryState, event: DestinationEvent): BeneficiaryState | DestinationExit {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'EDIT': {
      if (!idle) return state
      const { values, purpose } = event
      const draft = { ...state.draft, values: { ...state.draft.values, ...values }, purpose: purpose ?? state.draft.purpose }
      // Typing in a field clears its own problem only.
      const problems = { ...state.problems }
      for (const name of [...Object.keys(values ?? {}), ...(purpose === undefined ? [] : ['purpose'])]) delete problems[name]
      return { ...state, draft, problems }
    }
    case 'SUBMIT': {
      if (!idle || !state.draft.schema) return state
      const schema = beneficiarySchema(state.draft.schema)
      const problems = validateBeneficiary(schema, state.draft.values)
      const purpose = schema.purpose ? purposeProblem(state.draft.purpose) : undefined
      if (Object.keys(problems).length > 0 || purpose) return { ...state, problems: { ...problems, ...(purpose ? { purpose } : {}) }, problem: undefined }
      if (priceGone(state, event.now)) return { tag: 'requote' }
      return { ...state, problems: {}, problem: undefined, work: 'creating' }
    }
    case 'CREATE_FAILED':
      if (state.work !== 'creating') return state
      return {
        ...state,
        work: 'idle',
        problem: event.problem,
        problems: event.field ? { ...state.problems, [event.field.name]: event.field.problem } : state.problems,
      }
    case 'INVALID':
      return state.work === 'creating' ? { ...state, work: 'idle', problems: event.problems, problem: undefined } : state
    default:
      return state
  }
}
