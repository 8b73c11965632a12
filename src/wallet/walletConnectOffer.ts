// WalletConnect offered in the page's wallet list where the partner's registry entry gives a project
// (the deposit's and the payout's wallet discovery call it): its small module loads then, its client
// only when the buyer picks it (walletConnectWallet.tsx).
import type { ChainConfig } from '../config/config'
import { readRegistry } from '../config/link'
import { walletConnectOf } from './walletConnectLoader'

const offered = new WeakSet<Window>()

/**
 * Puts WalletConnect in the page's wallet list (EIP-6963) where the partner's registry entry offers
 * it, once a page: its small module loads as the wallets are looked for, its client only when the
 * buyer picks it. Offline, it is simply not in the list.
 */
export function offerWalletConnect(target: Window | undefined, config: { partner?: string; apiBase: string; chains?: ChainConfig[] }): void {
  // Script mode names no partner: WalletConnect is a registry entry's offer only.
  if (!config.partner || !target?.document || offered.has(target)) return
  const settings = walletConnectOf(config, readRegistry(target.document))
  if (!settings) return
  offered.add(target)
  const scope = { partner: config.partner, apiBase: config.apiBase }
  import('./walletConnectWallet').then(
    ({ announceWalletConnect }) => announceWalletConnect(target, { config: settings, scope, chains: config.chains ?? [], host: target.document.body }),
    () => offered.delete(target),
  )
}
