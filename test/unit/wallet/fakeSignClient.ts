// A stand-in for @walletconnect/sign-client's dapp side: sessions in a Map, every request held
// until the test answers it, events emitted by the test. It counts what would reach the relay.
import type { Session, SignClientLike } from '../../../src/wallet/walletConnect/session'

export const PHONE = '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f'
export const TOPIC = 'a'.repeat(64)

export function session(overrides: Partial<Session> & { chains?: number[]; methods?: string[] } = {}): Session {
  const {
    chains = [8453, 42161],
    methods = [
      'eth_sendTransaction',
      'personal_sign',
      'eth_signTypedData_v4',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_getCapabilities',
      'wallet_sendCalls',
      'wallet_getCallsStatus',
    ],
    ...rest
  } = overrides
  return {
    topic: TOPIC,
    expiry: 2_000_000_000,
    acknowledged: true,
    namespaces: {
      eip155: {
        chains: chains.map((c) => `eip155:${c}`),
        accounts: chains.map((c) => `eip155:${c}:${PHONE}`),
        methods,
        events: ['chainChanged', 'accountsChanged'],
      },
    },
    ...rest,
  }
}

type Held = { params: Parameters<SignClientLike['request']>[0]; resolve: (v: unknown) => void; reject: (e: unknown) => void }

export function fakeSignClient(sessions: Session[] = [session()]) {
  const store = new Map(sessions.map((s) => [s.topic, s]))
  const listeners = new Map<string, Set<(args: any) => void>>()
  const requests: Held[] = []
  const disconnects: Array<{ topic: string; reason: { code: number; message: string } }> = []
  const proposals: Array<{ params: Parameters<SignClientLike['connect']>[0]; approve: (s: Session) => void; reject: (e: unknown) => void }> = []
  let closed = 0
  const register = async () => 'attestation'
  const resolve = async () => ({ origin: 'x' })
  const client = {
    session: {
      getAll: () => [...store.values()],
      get(topic: string) {
        const found = store.get(topic)
        if (!found) throw new Error(`No matching key. session topic doesn't exist: ${topic}`)
        return found
      },
      async delete(topic: string) {
        store.delete(topic)
      },
    },
    async connect(params) {
      let approve!: (s: Session) => void
      let reject!: (e: unknown) => void
      const approval = new Promise<Session>((res, rej) => {
        approve = (s) => {
          store.set(s.topic, s)
          res(s)
        }
        reject = rej
      })
      proposals.push({ params, approve, reject })
      return { uri: `wc:${'b'.repeat(64)}@2?relay-protocol=irn&symKey=${'c'.repeat(64)}&expiryTimestamp=1700000300`, approval: () => approval }
    },
    request: (params) => new Promise((res, rej) => void requests.push({ params, resolve: res as (v: unknown) => void, reject: rej })),
    async disconnect(params) {
      disconnects.push(params)
      store.delete(params.topic)
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(listener)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener)
    },
    core: {
      verify: { register, resolve },
      relayer: { transportClose: async () => void closed++ },
      heartbeat: { stop: () => {} },
    },
  } satisfies SignClientLike as SignClientLike
  return {
    client,
    store,
    requests,
    disconnects,
    proposals,
    original: { register, resolve },
    closed: () => closed,
    listening: (event: string) => listeners.get(event)?.size ?? 0,
    emit: (event: string, args: unknown) => [...(listeners.get(event) ?? [])].forEach((l) => l(args)),
    /** The phone's answer to the last request. */
    answer: (result: unknown) => requests.at(-1)!.resolve(result),
    fail: (error: unknown) => requests.at(-1)!.reject(error),
  }
}
