// An EIP-1193 provider over one WalletConnect session, the shape eip6963.ts gives for an injected
// wallet. What the session already says is answered here (the chain, the account; a switch to a
// chain it holds), so the phone is only asked what needs the buyer. Each request goes to the relay
// once: no retry, and on a timeout it is left with the wallet. Reads of the chain (eth_call…) are not
// served: readClient reads through the chain's rpcUrl.
import { type Clock, systemClock } from '../../kernel/types'
import type { Eip1193Provider } from '../eip6963'
import { WalletConnectError, WalletConnectSessionEnded, WalletConnectTimeout, WalletConnectUnsupported, walletConnectErrorOf } from './errors'
import { type Session, type SignClientLike, accountsOf, methodsOf } from './session'

/** A prompt on the phone: the buyer may need minutes to find it. */
export const PROMPT_MS = 5 * 60_000
/** What a wallet answers by itself: a phone asleep may take a while. */
export const READ_MS = 30_000

const PROMPTS = ['eth_sendTransaction', 'personal_sign', 'eth_signTypedData_v4', 'wallet_sendCalls', 'wallet_switchEthereumChain', 'wallet_addEthereumChain']
const READS = ['wallet_getCapabilities', 'wallet_getCallsStatus']
/** What the widget asks a wallet to approve. */
export const METHODS = [...PROMPTS, ...READS]
export const EVENTS = ['chainChanged', 'accountsChanged']
// sign-client refuses an expiry under 5 minutes (seconds).
const MIN_EXPIRY = 300

export type WalletConnectProvider = Required<Eip1193Provider> & {
  /** The account on the current chain. */
  readonly address: string
  readonly chainId: number
}

type Listener = (...args: unknown[]) => void
const hex = (id: number) => `0x${id.toString(16)}`
const chainOfParam = (value: unknown) => {
  const id = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.startsWith('eip155:') ? value.slice(7) : value) : Number.NaN
  return Number.isSafeInteger(id) && id > 0 ? id : undefined
}

export type SessionProvider = {
  provider: WalletConnectProvider
  /** Ends it here: pending requests fail, `disconnect` is emitted once. */
  end(by: 'wallet' | 'expiry' | 'widget', cause?: unknown): void
  /** Lets go of the client without ending the session (the widget unmounted): nothing is emitted, requests fail with an AbortError. */
  detach(): void
}

export function createSessionProvider(client: SignClientLike, topic: string, options: { chainId: number; clock?: Clock; onEnd?: () => void }): SessionProvider {
  const clock = options.clock ?? systemClock
  const listeners = new Map<string, Set<Listener>>()
  const pending = new Set<(error: Error) => void>()
  const session = (): Session => client.session.get(topic)
  let chainId = options.chainId
  let address = accountsOf(session()).get(chainId) ?? ''
  let ended: Error | undefined

  const emit = (event: string, value: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(value)
      } catch {
        // One listener's failure is not the session's.
      }
    }
  }
  const setAddress = (next: string | undefined) => {
    if (!next || next.toLowerCase() === address.toLowerCase()) return
    address = next
    emit('accountsChanged', [next])
  }
  const setChain = (next: number) => {
    if (next === chainId) return
    chainId = next
    emit('chainChanged', hex(next))
    setAddress(accountsOf(session()).get(next))
  }

  const onEvent = ({ topic: t, params }: { topic: string; params: { event: { name: string; data: unknown }; chainId: string } }) => {
    if (t !== topic || ended) return
    if (params.event.name === 'chainChanged') {
      const id = chainOfParam(params.event.data) ?? chainOfParam(params.chainId)
      if (id) setChain(id)
    } else if (params.event.name === 'accountsChanged' && Array.isArray(params.event.data)) {
      const first = params.event.data.find((a): a is string => typeof a === 'string')
      setAddress(first?.split(':').pop())
    }
  }
  const onUpdate = ({ topic: t }: { topic: string }) => {
    if (t !== topic || ended) return
    const held = accountsOf(session())
    if (!held.has(chainId) && held.size) setChain(held.keys().next().value as number)
    setAddress(held.get(chainId))
  }
  const onDelete = ({ topic: t }: { topic: string }) => t === topic && end('wallet')
  const onExpire = ({ topic: t }: { topic: string }) => t === topic && end('expiry')
  const subscriptions: Array<[string, (args: any) => void]> = [
    ['session_event', onEvent],
    ['session_update', onUpdate],
    ['session_delete', onDelete],
    ['session_expire', onExpire],
  ]
  for (const [event, listener] of subscriptions) client.on(event, listener)

  const stop = (error: Error) => {
    if (ended) return false
    ended = error
    for (const [event, listener] of subscriptions) client.off(event, listener)
    for (const fail of [...pending]) fail(error)
    return true
  }
  function end(by: 'wallet' | 'expiry' | 'widget', cause?: unknown) {
    const error = new WalletConnectSessionEnded(by, cause)
    if (!stop(error)) return
    options.onEnd?.()
    emit('disconnect', error)
  }
  const detach = () => void stop(new DOMException('the widget let go of WalletConnect', 'AbortError'))

  function live(): Session {
    if (ended) throw ended
    try {
      return session()
    } catch (error) {
      end('wallet', error)
      throw ended
    }
  }

  /** One request to the phone, sent once; it fails on its own after `ms`, the request left with the wallet. */
  function ask(method: string, params: unknown, chain: number): Promise<unknown> {
    const held = live()
    if (!methodsOf(held).includes(method)) return Promise.reject(new WalletConnectUnsupported(method))
    if (!accountsOf(held).has(chain))
      return Promise.reject(new WalletConnectError(4901, 'The wallet holds no account on this chain in this session', { details: `chain ${chain}` }))
    const ms = PROMPTS.includes(method) ? PROMPT_MS : READ_MS
    return new Promise((resolve, reject) => {
      let settled = false
      const settle = (run: () => void) => {
        if (settled) return
        settled = true
        clock.clearTimeout(timer)
        pending.delete(fail)
        run()
      }
      const fail = (error: Error) => settle(() => reject(error))
      const timer = clock.setTimeout(() => fail(new WalletConnectTimeout(method, ms)), ms)
      pending.add(fail)
      client.request({ topic, chainId: `eip155:${chain}`, request: { method, params }, expiry: Math.max(MIN_EXPIRY, Math.ceil(ms / 1000)) }).then(
        (result) => settle(() => resolve(result)),
        (error) => {
          const mapped = walletConnectErrorOf(error, method, ms)
          // The phone ended the session (sign-client fails what is pending first): the session's end, heard once.
          if (mapped instanceof WalletConnectSessionEnded) end(mapped.by, error)
          fail(mapped)
        },
      )
    })
  }

  const provider: WalletConnectProvider = {
    get address() {
      return address
    },
    get chainId() {
      return chainId
    },
    async request({ method, params }) {
      const list = Array.isArray(params) ? params : []
      switch (method) {
        case 'eth_chainId':
          live()
          return hex(chainId)
        case 'eth_accounts':
        case 'eth_requestAccounts':
          live()
          return [address]
        case 'wallet_switchEthereumChain': {
          const target = chainOfParam((list[0] as { chainId?: unknown } | undefined)?.chainId)
          if (!target) throw new WalletConnectError(-32602, 'wallet_switchEthereumChain needs a chainId')
          // A chain the session holds needs no prompt: every request names its chain.
          if (target === chainId || accountsOf(live()).has(target)) {
            setChain(target)
            return null
          }
          const answer = await ask(method, params, chainId)
          setChain(target)
          return answer
        }
        case 'eth_sendTransaction':
        case 'wallet_sendCalls': {
          // The chain the transaction names, else the current one.
          const named = chainOfParam((list[0] as { chainId?: unknown } | undefined)?.chainId)
          return ask(method, params, named ?? chainId)
        }
        default:
          if (!METHODS.includes(method)) throw new WalletConnectUnsupported(method)
          return ask(method, params, chainId)
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
  return { provider, end, detach }
}
