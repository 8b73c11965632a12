// Why a deposit cannot be paid by address, in the buyer's words (the catalog key for each refusal).
import type { MessageKey } from '../i18n/i18n'

export type ByAddressRefusal = 'approval' | 'call' | 'amount' | 'chain' | 'spent' | 'unreadable'

export const refusalKey = (refusal: ByAddressRefusal): MessageKey => `byAddress.refused.${refusal}`

/**
 * What the buyer is told, before sending, about whose deposit it will be: where the partner's backend
 * is the kit (walletLink), it asked for the address for this signed-in buyer and records it to them,
 * so a transfer to it as shown counts as theirs, from any wallet or exchange (on the form, then beside
 * the address). Elsewhere the page's own backend decides, and nothing is claimed.
 */
export function byAddressCreditKey(config: { walletLink: boolean }, at: 'form' | 'watch'): MessageKey | undefined {
  if (!config.walletLink) return undefined
  return at === 'form' ? 'byAddress.kit' : 'byAddress.kitWatch'
}
