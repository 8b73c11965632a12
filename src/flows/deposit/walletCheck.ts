// Whether the deposit asks the partner's kit about the buyer's wallet before its first send: one
// predicate for the send's checks (sendChecks.ts) and for what the screen says will happen.
import type { WidgetConfig } from '../../config/config'

/**
 * Only where the registry (or a script-mode page) says the partner's backend links wallets, and
 * names that backend: never guessed from its answers, since a backend without the route may answer
 * with nothing readable.
 */
export function asksWalletLink(config: Pick<WidgetConfig, 'walletLink' | 'partnerBase'>): boolean {
  return config.walletLink && !!config.partnerBase
}
