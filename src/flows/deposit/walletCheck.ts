// Whether the deposit asks the partner's kit about the buyer's wallet before its first send: one
// predicate for the send's checks (sendChecks.ts), for what the screen says will happen, and for
// what is asked before the buyer confirms.
import type { WidgetConfig } from '../../config/config'

/**
 * Only where the registry (or a script-mode page) says the partner's backend links wallets, and
 * names that backend: never guessed from its answers, since a backend without the route may answer
 * with nothing readable.
 */
export function asksWalletLink(config: Pick<WidgetConfig, 'walletLink' | 'partnerBase'>): boolean {
  return config.walletLink && !!config.partnerBase
}

/**
 * A link that tells the partner's backend nothing of who the buyer is (no partner token, no
 * cookies: an unsigned link, say), where the deposit asks that backend to link the wallet. The kit
 * links wallets to its signed-in user only; whether this backend takes the buyer anyway is asked
 * as the price is (linkWallet.ts askSignedIn), so that a 401 is said before confirming.
 */
export function carriesNoSignIn(config: Pick<WidgetConfig, 'walletLink' | 'partnerBase' | 'partnerToken' | 'partnerCookies'>): boolean {
  return asksWalletLink(config) && !config.partnerToken && !config.partnerCookies
}
