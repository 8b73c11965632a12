// Card payment (assumed-contract.md: "Card payment: the partner's backend"): the KYC token, the
// purchase on the provider's hosted page, and its status. The card's rate and limits are reference
// data (reference.ts).
import * as z from 'zod/mini'
import { address, currency, decimal, httpUrl, id, text } from './fields'
import { type Route, creates, fiatAmount, post, reads } from './route'
import { withReturnUrl } from './returnUrl'

export const cardRoutes: readonly Route[] = [
  post('/card/kyc-token', z.strictObject({ walletAddress: address })),
  post(
    '/card/purchase',
    z.strictObject({ kycToken: text(4096), fiatCurrency: currency, fiatAmount: decimal, walletAddress: address, returnUrl: httpUrl }),
    withReturnUrl(creates('card', { amount: fiatAmount })),
  ),
  post('/card/status', id, reads('card')),
]
