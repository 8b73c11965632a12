// Sandbox only: an EIP-6963 wallet backed by a funded anvil dev account (unlocked, so no keys
// here), so a newcomer without a browser wallet can finish a deposit against the local chains.
import type { ChainConfig } from '../config/config'
import type { Eip1193Provider } from './eip6963'
import { rpcProvider } from './rpcProvider'

export const SANDBOX_ACCOUNT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' // anvil dev account 9
const ICON =
  'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="8" fill="%23b45309"/%3E%3Ctext x="16" y="22" font-size="16" text-anchor="middle" fill="white"%3ES%3C/text%3E%3C/svg%3E'

export function createSandboxProvider(chains: ChainConfig[], name: string): Eip1193Provider {
  const usable = chains.filter((c) => c.rpcUrl)
  let chainId = usable[0]?.id ?? 1
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  const emit = (event: string, value: unknown) => listeners.get(event)?.forEach((l) => l(value))
  const rpc = (method: string, params: unknown) => {
    const url = usable.find((c) => c.id === chainId)?.rpcUrl
    if (!url) throw failure(4901, `${name} is not connected to chain ${chainId}`)
    return rpcProvider(url).request({ method, params })
  }

  return {
    async request({ method, params }) {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [SANDBOX_ACCOUNT]
        case 'eth_chainId':
          return `0x${chainId.toString(16)}`
        case 'wallet_switchEthereumChain': {
          const wanted = Number.parseInt(String((params as [{ chainId: string }])[0]?.chainId), 16)
          if (!usable.some((c) => c.id === wanted)) throw failure(4902, 'Unrecognized chain')
          if (wanted !== chainId) {
            chainId = wanted
            emit('chainChanged', `0x${wanted.toString(16)}`)
          }
          return null
        }
        case 'wallet_addEthereumChain':
          return null
        case 'eth_sendTransaction': {
          const [tx] = params as [Record<string, unknown>]
          return rpc(method, [{ ...tx, from: SANDBOX_ACCOUNT }])
        }
        default:
          return rpc(method, params)
      }
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)?.add(listener)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
  }
}

function failure(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code })
}

export function announceSandboxWallet(target: Window, chains: ChainConfig[], name: string): () => void {
  const provider = createSandboxProvider(chains, name)
  const detail = Object.freeze({
    info: { uuid: 'sandbox-wallet', name, icon: ICON, rdns: 'dev.stablecoin-widget.sandbox' },
    provider,
  })
  const announce = () => target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  target.addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => target.removeEventListener('eip6963:requestProvider', announce)
}
