// The live card rate's answer (cardRate.ts calls it; loaded after the first screen: see lazySchemas).
import * as z from 'zod/mini'
import { decimalString } from './schemas-common'

export const cardRate = z.object({
  side: z.enum(['buy', 'sell']),
  fiatCurrency: z.string(),
  cryptoCurrency: z.string().check(z.minLength(1)),
  /** Fees included. */
  fiatAmount: decimalString,
  cryptoAmount: decimalString,
  rate: decimalString,
})
/** A live rate, a display aid only: nothing is reserved. */
export type CardRate = z.infer<typeof cardRate>
