// The payout's door for its screens (src/screens/payout/): what they may read of the flow. Types are
// erased; the values are the pure ones a screen draws with (no effect, no wallet code).
export type { FormError, FundingProblem, PayoutForm, Source } from './base'
export { schemasFor } from './beneficiary'
export { beneficiarySchema } from './beneficiarySchemas'
export type { BeneficiaryField, BeneficiaryState, CardState, DestinationEvent, FieldProblem, Word } from './destination'
export type { ConnectState, FundingEvent, FundingState, ResultState, TrackingState } from './funding'
export { fundingContext } from './fundingText'
export type { PayoutRecord } from './record'
export { promptedUnanswered } from './record'
export type { FormState, PayoutEvent, QuoteState, QuotingState } from './state'
export { fundingRequest } from './byAddress'
export { payoutSourceOf } from './source'
