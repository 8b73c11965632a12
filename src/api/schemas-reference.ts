// The reference data's answers (reference.ts calls them; loaded after the first screen: see lazySchemas).
import * as z from 'zod/mini'
import { decimalString } from './schemas-common'

const currencyCode = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'))

export const limitDirections = ['pay_in', 'payout', 'both'] as const

export const limitEntry = z.object({
  currency: currencyCode,
  rail: z.string().check(z.minLength(1)),
  direction: z.enum(limitDirections),
  /** Per transfer, major unit; null: the rail sets no fixed ceiling. */
  max: z.nullable(decimalString),
  /** null: no minimum. */
  min: z.nullable(decimalString),
  /** e.g. `instant`, `t+0`, `t+1`, `t+1..t+3`, `under_2h`. */
  settlement: z.string().check(z.minLength(1)),
})
export type LimitEntry = z.infer<typeof limitEntry>

export const limits = z.object({ limits: z.array(limitEntry) })

const countryCode = /^[A-Z]{2}$/

/** Assumed (the contract does not show it): country → which ways to pay are open there. */
export const paymentMethods = z.object({
  // Keyed by ISO 3166-1 alpha-2: any other key is no country, and is dropped whatever it holds
  // (looseRecord lets it through unparsed; the overwrite removes it).
  countries: z
    .looseRecord(
      z.string().check(z.regex(countryCode)),
      z.object({
        /** The country's own currency (what its banks send). */
        currency: z.optional(z.string()),
        bank_deposit: z.boolean(),
        virtual_account: z.boolean(),
        card: z.boolean(),
        /** The bank payout and the card payout (docs/assumptions.md); absent: not said. */
        bank_payout: z.optional(z.boolean()),
        card_payout: z.optional(z.boolean()),
      }),
    )
    .check(z.overwrite((countries) => Object.fromEntries(Object.entries(countries).filter(([code]) => countryCode.test(code))))),
})
export type PaymentMethods = z.infer<typeof paymentMethods>
