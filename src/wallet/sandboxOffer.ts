// Sandbox builds only (callers guard with __SANDBOX_BUILD__, so a production build has none of it):
// the sandbox's test wallet (sandboxWallet.ts) offered on a page whose widget may ask a wallet to
// send, so a newcomer without a browser wallet finishes a deposit or a payout on every sandbox page:
// the hosted page and the partner pages that mount the widget in their own document.
import type { ChainConfig } from '../config/config'
import { t } from '../i18n/i18n'

const offered = new WeakSet<Window>()

/** A widget that starts on `flow` (none: the buyer picks) may ask a wallet to send: a deposit, a payout's funding. */
export const mayAskWallet = (flow: unknown) => flow === undefined || flow === 'deposit' || flow === 'payout' || flow === 'cardPayout'

/** Announces the sandbox wallet on `target` (once per window, however many widgets it mounts). */
export function offerSandboxWallet(target: Window, flow: unknown, chains: ChainConfig[]): void {
  if (!mayAskWallet(flow) || offered.has(target)) return
  offered.add(target)
  import('./sandboxWallet').then(({ announceSandboxWallet }) => announceSandboxWallet(target, chains, t('wallet.sandbox')))
}
