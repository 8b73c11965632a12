// The one-off bank deposit's answers (bankDeposit.ts calls them; loaded after the first screen: see lazySchemas).
import * as z from 'zod/mini'
import { bankDepositStatuses } from '../lib/status/bankDeposit'
import { decimalString, hash, isoDate } from './schemas-common'

const optionalText = z.optional(z.string())
export const bankDepositDetails = z.catchall(
  z.object({
    // The money is attributed by it: without one, the details are unusable.
    reference: z.string().check(z.minLength(1)),
    iban: optionalText,
    bic: optionalText,
    swiftCode: optionalText,
    bankName: optionalText,
    accountName: optionalText,
    accountNumber: optionalText,
    sortCode: optionalText,
    routingNumber: optionalText,
    clabe: optionalText,
    pixKey: optionalText,
    pixPayload: optionalText,
  }),
  z.unknown(),
)
export type BankDepositDetails = z.infer<typeof bankDepositDetails>

export const bankDeposit = z.object({
  id: z.string().check(z.minLength(1)),
  details: bankDepositDetails,
  rail: z.string().check(z.minLength(1)),
  expiresAt: isoDate,
  // `awaiting_funds` on creation; a retry with the same reference returns the deposit as it is now.
  status: z.enum(bankDepositStatuses),
})
export type BankDeposit = z.infer<typeof bankDeposit>

export const bankDepositStatus = z.object({
  id: z.string().check(z.minLength(1)),
  status: z.enum(bankDepositStatuses),
  /** What actually arrived: may differ from what was asked; show this one. */
  fiatAmount: z.optional(decimalString),
  cryptoAmount: z.optional(decimalString),
  /** The asset delivered: never assumed (not USDC by default). */
  cryptoCurrency: z.optional(z.string().check(z.minLength(1))),
  settlementTxHash: z.optional(hash),
  reason: z.optional(z.string()),
  updatedAt: z.optional(isoDate),
})
export type BankDepositStatus = z.infer<typeof bankDepositStatus>
