// The one-off bank deposit's statuses (partner-api.md: "One-off bank deposit"), and where it is
// offered. Pure, no imports: the api schemas, the stored checks, the reconciler and the machine share it.
export const bankDepositStatuses = ['awaiting_funds', 'received', 'converting', 'settled', 'returned', 'expired'] as const
export type BankDepositStatusName = (typeof bankDepositStatuses)[number]

/**
 * Nothing moves after these. `expired` is not one of them: money sent before `expiresAt` still
 * arrives (`expired` → `received`), so it is followed, and never shown as a loss.
 */
export const bankDepositFinal: readonly BankDepositStatusName[] = ['settled', 'returned']

export const isBankDepositFinal = (status: string): boolean => (bankDepositFinal as readonly string[]).includes(status)

/** The one-off deposit is offered only where the service says so (GET /payment-methods); elsewhere, the virtual account. */
export function offersBankDeposit(
  methods: { countries: Record<string, { readonly bank_deposit: boolean; readonly [other: string]: unknown } | undefined> },
  country: string,
): boolean {
  return methods.countries[country.toUpperCase()]?.bank_deposit === true
}
