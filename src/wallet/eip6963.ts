// EIP-6963 multi-wallet discovery. Small on purpose: viem loads only once a wallet is chosen.
import type { WalletInfo } from '../kernel/types'

export type Eip1193Provider = {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?(event: string, listener: (...args: unknown[]) => void): void
  removeListener?(event: string, listener: (...args: unknown[]) => void): void
}

type Announcement = { info: { uuid: string; name: string; icon?: string; rdns: string }; provider: Eip1193Provider }

const providers = new Map<string, Eip1193Provider>()

export function providerOf(walletId: string): Eip1193Provider | undefined {
  return providers.get(walletId)
}

export function providerByRdns(rdns: string): Eip1193Provider | undefined {
  for (const [id, provider] of providers) if (id.endsWith(`|${rdns}`)) return provider
  return undefined
}

/** Listens for announcements and asks wallets to announce; calls back with the growing list. */
export function discoverWallets(target: Window, onChange: (wallets: WalletInfo[]) => void): () => void {
  const found = new Map<string, WalletInfo>()
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<Announcement>).detail
    const info = detail?.info
    if (!info || typeof info.name !== 'string' || typeof detail.provider?.request !== 'function') return
    const rdns = String(info.rdns ?? '')
    const id = `${String(info.uuid ?? rdns)}|${rdns}`
    if (found.has(id)) return
    providers.set(id, detail.provider)
    found.set(id, {
      id,
      rdns,
      name: info.name.slice(0, 60),
      // Only data:image URIs: an https icon would make the page fetch from wherever a wallet says.
      icon: typeof info.icon === 'string' && /^data:image\/[a-z+.-]+[;,]/i.test(info.icon) ? info.icon : undefined,
    })
    onChange([...found.values()])
  }
  target.addEventListener('eip6963:announceProvider', listener)
  target.dispatchEvent(new Event('eip6963:requestProvider'))
  return () => target.removeEventListener('eip6963:announceProvider', listener)
}
