// One-off bank deposit (permission `bank`): from the user's own account into their wallet, and its
// status.
import * as z from 'zod/mini'
import { currency, decimal, id, reference, text } from './fields'
import { type Route, creates, fiatAmount, post, reads } from './route'

export const bankDepositRoutes: readonly Route[] = [
  post(
    '/bank/deposit',
    z.strictObject({ accountId: text(128), walletId: text(128), fiatCurrency: currency, fiatAmount: decimal, reference: z.optional(reference) }),
    creates('bankDeposit', { amount: fiatAmount, scopesReference: true }),
  ),
  post('/bank/deposit/status', id, reads('bankDeposit')),
]
