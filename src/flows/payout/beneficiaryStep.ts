// A bank payout's destination: the beneficiary, one form per schema (beneficiary.ts), checked before
// anything is sent; the payout is created once, under the reference of its request. Pure.
import type { PayoutQuote } from '../../api/payout'
import { carried } from './base'
import { beneficiarySchema, initialValues, purposeProblem, schemaFor, validateBeneficiary } from './beneficiary'
import { type BeneficiaryState, type DestinationEvent, type DestinationExit, type DestinationStep, answered, priceGone } from './destination'

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
