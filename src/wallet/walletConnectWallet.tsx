// WalletConnect as one more wallet in the list the buyer picks from (EIP-6963, as an injected wallet
// announces itself), so every flow's connect step (kernel/connectWallet.ts) takes a phone wallet the
// way it takes an extension: the quote guard, the simulated preview, the wallet link and the funding
// rules run as they do for any wallet. Picked, it restores this partner's live session, or shows its
// pairing code (QR, a copy button, the wallet apps' links on a phone) until the phone approves.
// This module is small and loads only where the partner's registry entry gives a project; the
// client itself (@walletconnect/sign-client) loads only once the buyer picks it.
import { render } from 'preact'
import type { ChainConfig } from '../config/config'
import type { WalletConnectConfig } from '../config/link'
import { addEnglish, t } from '../i18n/i18n'
import { enWalletConnect } from '../i18n/en-walletConnect'
import type { StorageScope } from '../storage/safeStorage'
import type { Eip1193Provider } from './eip6963'
import { loadWalletConnect } from './walletConnectLoader'
import { Pairing } from './walletConnectPairing'

addEnglish(enWalletConnect)

type Listener = (...args: unknown[]) => void
type Connected = { request: Eip1193Provider['request']; on(e: string, l: Listener): void; removeListener(e: string, l: Listener): void; address: string }

export type WalletConnectWalletOptions = {
  config: WalletConnectConfig
  scope: StorageScope
  chains: ChainConfig[]
  /** Where the pairing dialog is drawn (the widget's page). */
  host: HTMLElement
  appName?: string
}

const ICON =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="8" fill="%233b99fc"/%3E%3Cpath d="M9 13c4-4 10-4 14 0l-2 2c-3-3-7-3-10 0zm3 3 2 2 2-2 2 2 2-2 2 2-4 4-2-2-2 2-4-4z" fill="white"/%3E%3C/svg%3E'

const failure = (code: number, message: string) => Object.assign(new Error(message), { code })

/** An EIP-1193 provider that is WalletConnect: nothing loads until the buyer picks it. */
export function createWalletConnectWallet(options: WalletConnectWalletOptions): Eip1193Provider & { disconnect(only?: 'pairedHere'): Promise<void> } {
  const chains = options.chains.map((c) => c.id)
  const listeners = new Map<string, Set<Listener>>()
  let live: Connected | undefined
  /** The live session was paired by this page (the code shown here), not restored from storage (another tab's, maybe). */
  let pairedHere = false
  /** How the last session ended when the phone (or its expiry) ended it: what a request says until the buyer connects again. */
  let ended: unknown
  let connecting: Promise<Connected> | undefined
  let client: Promise<import('./walletConnect/client').WalletConnect> | undefined

  const clientOf = () =>
    (client ??= loadWalletConnect().then(
      (wc) => wc.createWalletConnect({ config: options.config, scope: options.scope, appName: options.appName }),
      (error) => {
        client = undefined
        throw error
      },
    ))

  const adopt = (provider: Connected) => {
    live = provider
    ended = undefined
    for (const [event, set] of listeners) for (const l of set) provider.on(event, l)
    provider.on('disconnect', (error) => {
      if (live !== provider) return
      live = undefined
      // Ended with no reason given: still an end the phone made, not a wallet never connected.
      ended = error ?? Object.assign(new Error('The WalletConnect session has ended'), { name: 'WalletConnectSessionEnded', code: 4900, by: 'wallet' })
    })
    return provider
  }

  const connect = async (): Promise<Connected> => {
    const wc = await clientOf()
    const restored = await wc.restore({ chains })
    pairedHere = !restored
    if (restored) return adopt(restored.provider)
    const abort = new AbortController()
    const dialog = openPairing(options.host, () => abort.abort())
    try {
      const connected = await wc.connect({ chains, signal: abort.signal, onUri: dialog.show })
      return adopt(connected.provider)
    } catch (error) {
      // The buyer closed the code: as a wallet's "no".
      if (abort.signal.aborted) throw failure(4001, 'The buyer closed the pairing code')
      throw error
    } finally {
      dialog.close()
    }
  }

  return {
    async request(args) {
      if (live) return live.request(args)
      switch (args.method) {
        case 'eth_accounts':
          return []
        case 'eth_chainId':
          // The phone ended the session: said before any prompt (the payout's checks read the chain first).
          if (ended) throw ended
          return `0x${(chains[0] ?? 1).toString(16)}`
        case 'eth_requestAccounts': {
          connecting ??= connect().finally(() => {
            connecting = undefined
          })
          return [(await connecting).address]
        }
        default:
          // The phone ended the session: said as such (errors/WalletError.ts: 'ended'), not as a wallet never connected.
          if (ended) throw ended
          throw failure(4100, 'Pick WalletConnect and approve on the phone first')
      }
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)?.add(listener)
      live?.on(event, listener)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
      live?.removeListener(event, listener)
    },
    async disconnect(only) {
      if (only === 'pairedHere' && !pairedHere) return
      pairedHere = false
      live = undefined
      ended = undefined
      await (await client)?.disconnect()
    },
  }
}

/** The pairing code over the page, until the phone answers or the buyer closes it. */
function openPairing(host: HTMLElement, onCancel: () => void) {
  const container = document.createElement('div')
  // The widget's theme and words reach the dialog: it sits inside the widget's own element.
  container.className = 'widget'
  container.dataset.theme = host.querySelector<HTMLElement>('.widget')?.dataset.theme ?? 'light'
  container.style.display = 'contents'
  host.appendChild(container)
  const opener = document.activeElement as HTMLElement | null
  let uri: string | undefined
  const draw = () => render(<Pairing uri={uri} onCancel={onCancel} />, container)
  draw()
  return {
    show(next: string) {
      uri = next
      draw()
    },
    close() {
      render(null, container)
      container.remove()
      // Back where the buyer was: the button that opened it, or else the screen's heading.
      if (opener?.isConnected && opener !== document.body) opener.focus()
      else host.querySelector<HTMLElement>('#screen-heading')?.focus()
    },
  }
}

/** Announces WalletConnect to the page's wallet discovery (EIP-6963); returns the way to stop. */
export function announceWalletConnect(target: Window, options: WalletConnectWalletOptions): () => void {
  const provider = createWalletConnectWallet(options)
  // Its rdns is how the deposit's amount screen tells a session it can end (its Disconnect).
  const detail = Object.freeze({ info: { uuid: 'walletconnect', name: t('wc.name'), icon: ICON, rdns: 'com.walletconnect' }, provider })
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  target.addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => target.removeEventListener('eip6963:requestProvider', announce)
}
