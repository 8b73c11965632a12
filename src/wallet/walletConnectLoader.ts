// WalletConnect as the widget sees it before the buyer picks it: whether it is offered, whether a
// session waits to be resumed, and the one door to its client (@walletconnect/sign-client, about
// 140 KB gzip), which loads only through loadWalletConnect, never with a first load.
import { type RegistryEntry, type WalletConnectConfig, readRegistry } from '../config/link'
import { type StorageScope, partnerStorage } from '../storage/safeStorage'
import { notedExpiry, walletConnectProblem } from './walletConnect/settings'

/**
 * The partner's WalletConnect settings, from its registry entry only (a hosted page or frame: the
 * entry its link named). In script mode there is no entry, so WalletConnect is not offered.
 */
export function walletConnectOf(config: { partner?: string }, registry: readonly RegistryEntry[] = readRegistry(document)): WalletConnectConfig | undefined {
  const settings = config.partner ? registry.find((e) => e.id === config.partner)?.walletConnect : undefined
  return settings && !walletConnectProblem(settings) ? settings : undefined
}

/** Whether the buyer may pick WalletConnect: only where the partner's registry entry gives a project. */
export const walletConnectOffered = (config: { partner?: string }, registry?: readonly RegistryEntry[]): boolean =>
  walletConnectOf(config, registry) !== undefined

/** Whether this partner's storage notes a session that has not expired: worth loading the client to restore it. */
export const walletConnectSaved = (scope: StorageScope, now = Date.now(), storage = partnerStorage(scope)): boolean => notedExpiry(storage, now) !== undefined

let loading: Promise<typeof import('./walletConnect/client')> | undefined

/** The client, loaded once; a failed load (offline) is tried again on the next call. */
export function loadWalletConnect(): Promise<typeof import('./walletConnect/client')> {
  // A build has it as a file of its own beside this chunk; dev and the tests take the source.
  loading ??= (
    (typeof __WALLETCONNECT_CLIENT__ === 'string' && __WALLETCONNECT_CLIENT__
      ? import(/* @vite-ignore */ `./${__WALLETCONNECT_CLIENT__}`)
      : import('./walletConnect/client')) as Promise<typeof import('./walletConnect/client')>
  ).catch((error) => {
    loading = undefined
    throw error
  })
  return loading
}
