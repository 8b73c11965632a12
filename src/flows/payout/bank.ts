// The bank payout's calls to the service (through the partner's backend): its quote, its creation
// with a beneficiary (creating.ts), its status. Loaded with the bank payout only.
import { getPayoutStatus, quotePayout } from '../../api/payout'
import type { PayoutCalls } from './context'
import { create } from './creating'

export const bankCalls: PayoutCalls = {
  quote(ctx, ask, signal) {
    const amount = ask.kind === 'crypto' ? { cryptoAmount: ask.amount } : { fiatAmount: ask.amount }
    const { source } = ctx
    return quotePayout(ctx.partner, { cryptoCurrency: source.symbol, chain: source.chainId, fiatCurrency: ask.currency, country: ask.country, ...amount, ...(ask.rail ? { rail: ask.rail } : {}) }, signal)
  },
  status: (ctx, id) => getPayoutStatus(ctx.partner, id),
  create: (ctx, state, alive) => (state.tag === 'beneficiary' ? create(ctx, state, alive) : Promise.resolve()),
}
