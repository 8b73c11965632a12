// The parts of @walletconnect/sign-client this folder uses, typed small (so tests can fake them),
// and what a session says: its chains, the account on each, the methods it offers.

export type Namespace = { chains?: string[]; accounts: string[]; methods: string[]; events: string[] }

export type Session = {
  topic: string
  /** Seconds since the epoch. */
  expiry: number
  acknowledged: boolean
  namespaces: Record<string, Namespace>
}

type Listener = (args: any) => void

export type SignClientLike = {
  connect(params: {
    optionalNamespaces: Record<string, { chains: string[]; methods: string[]; events: string[] }>
  }): Promise<{ uri?: string; approval(): Promise<Session> }>
  request<T = unknown>(params: { topic: string; chainId: string; request: { method: string; params?: unknown }; expiry?: number }): Promise<T>
  disconnect(params: { topic: string; reason: { code: number; message: string } }): Promise<void>
  session: { getAll(): Session[]; get(topic: string): Session; delete?(topic: string, reason: { code: number; message: string }): Promise<void> }
  on(event: string, listener: Listener): unknown
  off(event: string, listener: Listener): unknown
  core: {
    verify: { register: (...args: any[]) => Promise<string | undefined | void>; resolve: (...args: any[]) => Promise<unknown> }
    relayer: { transportClose(): Promise<void> }
    heartbeat: { stop(): void }
  }
}

/** The eip155 namespaces of a session, merged ("eip155" and any "eip155:<id>" one). */
function eip155(session: Session): Namespace {
  const spaces = Object.entries(session.namespaces ?? {}).filter(([key]) => key === 'eip155' || key.startsWith('eip155:'))
  const all = (pick: (n: Namespace) => string[] | undefined) => [...new Set(spaces.flatMap(([, n]) => pick(n) ?? []))]
  return { chains: all((n) => n.chains), accounts: all((n) => n.accounts), methods: all((n) => n.methods), events: all((n) => n.events) }
}

/** Each chain the session holds an account on, with that account (CAIP-10 `eip155:<id>:<address>`). */
export function accountsOf(session: Session): Map<number, string> {
  const out = new Map<number, string>()
  for (const account of eip155(session).accounts) {
    const [namespace, id, address] = account.split(':')
    if (namespace === 'eip155' && /^\d+$/.test(id) && /^0x[0-9a-fA-F]{40}$/.test(address ?? '') && !out.has(Number(id))) out.set(Number(id), address)
  }
  return out
}

export const methodsOf = (session: Session): string[] => eip155(session).methods

/** Not past its expiry, settled by the wallet, and holding at least one account. */
export const isLive = (session: Session, now: number): boolean => session.acknowledged && session.expiry * 1000 > now && accountsOf(session).size > 0

/** The chain to start on: the first of those asked for that the session holds, else its first. */
export function firstChain(session: Session, wanted: number[] = []): number | undefined {
  const held = accountsOf(session)
  return wanted.find((id) => held.has(id)) ?? held.keys().next().value
}
