// A bank payout's destination step: the beneficiary (partner-api.md: "Beneficiary"), one form per
// schema whose fields the contract names (beneficiarySchemas.ts), checked once, when it is submitted,
// and built there into what is sent (Sending); the payout is created once, under the reference of
// its request (bank.ts sends it, adding the addresses' EIP-55 checksums). The service refuses a field
// its schema does not define, so what is sent is built from the schema's own field list, never from
// whatever the form holds. Pure.
import type { Beneficiary, PayoutQuote } from '../../api/payout'
import { railKind } from '../../lib/limits'
import { type Draft, type OfferedSchemaId, carried } from './base'
import { beneficiarySchema, trim } from './beneficiarySchemas'
import {
  type BeneficiaryField,
  type BeneficiarySchema,
  type BeneficiaryState,
  type DestinationEvent,
  type DestinationExit,
  type DestinationStep,
  type FieldProblem,
  type Sending,
  answered,
  priceGone,
} from './destination'

export type Values = Readonly<Record<string, string | undefined>>

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

export type BuildResult = { ok: true; beneficiary: Beneficiary } | { ok: false; problems: Record<string, FieldProblem> }

/**
 * The form's checks, field by field, and the `beneficiary` they let through: `name`, `schema`, and
 * the schema's own fields, normalised. A value under any other name (another schema's field left in
 * the form) is dropped; an empty optional field is left out rather than sent empty.
 */
export function buildBeneficiary(schema: BeneficiarySchema, values: Values): BuildResult {
  const problems: Record<string, FieldProblem> = {}
  const out: Record<string, string | Record<string, string>> = {}
  for (const f of schema.fields) {
    const value = f.normalise(values[f.name] ?? f.initial ?? '')
    const problem = fieldProblem(f, value)
    if (problem) problems[f.name] = problem
    if (problem || value === '') continue
    const [outer, inner] = f.name.split('.')
    out[outer] = inner === undefined ? value : { ...(out[outer] as Record<string, string> | undefined), [inner]: value }
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems }
  return { ok: true, beneficiary: { ...out, name: out.name as string, schema: schema.id } }
}

/** Each field's problem, by field name; an empty object when the form can be sent. */
export function validateBeneficiary(schema: BeneficiarySchema, values: Values): Record<string, FieldProblem> {
  const built = buildBeneficiary(schema, values)
  return built.ok ? {} : built.problems
}

function fieldProblem(f: BeneficiaryField, value: string): FieldProblem | undefined {
  if (value === '') return f.required ? { kind: f.input === 'text' ? 'required' : 'choose' } : undefined
  if (value.length > f.maxLength) return { kind: 'tooLong', max: f.maxLength }
  if (f.options && !f.options.some((o) => o.value === value)) return { kind: 'choose' }
  return f.check?.(value)
}

/** `purpose`, where the form offers it: optional, at most 512 characters. */
export function purposeProblem(raw: string): FieldProblem | undefined {
  return trim(raw).length > 512 ? { kind: 'tooLong', max: 512 } : undefined
}

/** The form's checks, run once, when it is submitted: each field's problem, or what is sent. */
export function checkForm(
  schema: BeneficiarySchema,
  { values, purpose }: Pick<Draft, 'values' | 'purpose'>,
): { problems: Record<string, FieldProblem>; sending?: Sending } {
  const built = buildBeneficiary(schema, values)
  const wrong = schema.purpose ? purposeProblem(purpose) : undefined
  const problems = { ...(built.ok ? {} : built.problems), ...(wrong ? { purpose: wrong } : {}) }
  if (!built.ok || wrong) return { problems }
  const said = schema.purpose ? trim(purpose) : ''
  const addresses = schema.fields.filter((f) => f.eip55).map((f) => f.name)
  return { problems, sending: { beneficiary: built.beneficiary, ...(said ? { purpose: said } : {}), addresses } }
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
      const { problems, sending } = checkForm(beneficiarySchema(state.draft.schema), state.draft)
      if (!sending) return { ...state, problems, problem: undefined }
      if (priceGone(state, event.now)) return { tag: 'requote' }
      return { ...state, problems: {}, problem: undefined, work: 'creating', sending }
    }
    case 'CREATE_FAILED':
      if (state.work !== 'creating') return state
      return {
        ...state,
        work: 'idle',
        sending: undefined,
        problem: event.problem,
        problems: event.field ? { ...state.problems, [event.field.name]: event.field.problem } : state.problems,
      }
    case 'INVALID':
      return state.work === 'creating' ? { ...state, work: 'idle', sending: undefined, problems: event.problems, problem: undefined } : state
    default:
      return state
  }
}
