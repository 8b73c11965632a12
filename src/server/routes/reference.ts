// Reference data, the same for everyone: nothing of anyone's is read or created, so an anonymous
// caller is served when `allowAnonymous`.
import * as z from 'zod/mini'
import { asset, currency, decimal } from './fields'
import { type Route, get } from './route'

export const referenceRoutes: readonly Route[] = [
  get('/card/limits', z.strictObject({ fiatCurrency: currency, cryptoCurrency: asset })),
  get('/card/rate', z.strictObject({ fiatCurrency: currency, cryptoCurrency: asset, amount: decimal, side: z.optional(z.enum(['buy', 'sell'])) })),
  // The request of /payment-methods is not shown in the contract: it takes none.
  get('/limits', z.strictObject({ currency: z.optional(currency) })),
  get('/payment-methods', z.strictObject({})),
]
