// The card purchase's statuses after which nothing moves; any other (a state the contract does not
// name) stays followed. Pure, no imports: the api schemas, the reconciler and the machine share it.
export const cardFinal = ['completed', 'failed', 'cancelled', 'expired'] as const

export const isCardFinal = (status: string): boolean => (cardFinal as readonly string[]).includes(status)
