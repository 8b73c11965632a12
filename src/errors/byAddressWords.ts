// Why a deposit cannot be paid by address, in the buyer's words (the catalog key for each refusal).
import type { MessageKey } from '../i18n/i18n'

export type ByAddressRefusal = 'approval' | 'call' | 'amount' | 'chain' | 'spent' | 'unreadable'

export const refusalKey = (refusal: ByAddressRefusal): MessageKey => `byAddress.refused.${refusal}`
