// The bank payout's calls to the service (through the partner's backend): its quote, its creation
// with a beneficiary built from its schema (beneficiaryRequest.ts), its status. Loaded with the bank
// payout only (viem's keccak-256 comes with it, for an address's checksum: never with the first load).
import { createPayout, getPayoutStatus, quotePayout } from '../../api/payout'
import { payoutProblem } from '../../errors/payoutWords'
import { beneficiarySchema } from './beneficiary'
import { buildBeneficiary } from './beneficiaryRequest'
import type { PayoutCalls, PayoutContext, StateOf } from './context'
import { created, failed, referenceFor } from './creating'

export const bankCalls: PayoutCalls = {
  quote(ctx, ask, signal) {
    const amount = ask.kind === 'crypto' ? { cryptoAmount: ask.amount } : { fiatAmount: ask.amount }
    const { source } = ctx
    return quotePayout(
      ctx.partner,
      {
        cryptoCurrency: source.symbol,
        chain: source.chainId,
        fiatCurrency: ask.currency,
        country: ask.country,
        ...amount,
        ...(ask.rail ? { rail: ask.rail } : {}),
      },
      signal,
    )
  },
  status: (ctx, id) => getPayoutStatus(ctx.partner, id),
  create: (ctx, state, alive) => (state.tag === 'beneficiary' ? create(ctx, state, alive) : Promise.resolve()),
}

/** POST /bank/payout: the beneficiary as its schema builds it (only the fields it defines). */
async function create(ctx: PayoutContext, state: StateOf<'beneficiary'>, alive: () => boolean) {
  const schema = state.draft.schema
  const built = schema ? buildBeneficiary(beneficiarySchema(schema), state.draft.values) : undefined
  if (!schema || !built) return ctx.destination({ type: 'CREATE_FAILED', problem: payoutProblem({ kind: 'beneficiary' }) })
  // What only the request's own checks see (an address's EIP-55 checksum): said on its field, nothing sent.
  if (!built.ok) return ctx.destination({ type: 'INVALID', problems: built.problems })
  const purpose = beneficiarySchema(schema).purpose ? state.draft.purpose.trim().replace(/\s+/g, ' ') : ''
  const request = { quoteId: state.quote.quoteId, accountId: state.buyer.accountId, beneficiary: built.beneficiary, ...(purpose ? { purpose } : {}) }
  const reference = await referenceFor(ctx, state, request, alive)
  if (reference === undefined) return
  try {
    created(ctx, state, await createPayout(ctx.partner, { ...request, reference }), alive)
  } catch (error) {
    failed(ctx, error, alive)
  }
}
