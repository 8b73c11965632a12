// The WalletConnect client, loaded only when the buyer picks WalletConnect (walletConnectLoader.ts).
// One sign-client per partner and service on a page, kept in that partner's storage, with
// telemetry off and a logger that keeps nothing: the pairing URI and the session are the buyer's
// alone, never in a log (sign-client's default browser logger keeps every line in memory for any
// script on the page to download).
import { SignClient } from '@walletconnect/sign-client'
import type { WalletConnectConfig } from '../../config/link'
import { type Clock, systemClock } from '../../kernel/types'
import { type StorageScope, partnerStorage } from '../../storage/safeStorage'
import { WalletConnectError, walletConnectErrorOf } from './errors'
import { EVENTS, METHODS, PROMPT_MS, type SessionProvider, type WalletConnectProvider, createSessionProvider } from './provider'
import { type Session, type SignClientLike, accountsOf, firstChain, isLive } from './session'
import { SESSION_MARK, notedExpiry, walletConnectProblem } from './settings'
import { type KeyValueStorage, webKeyValueStorage } from './storage'

export { walletLinks } from './links'
export * from './errors'
export type { WalletConnectProvider } from './provider'

export type Connected = { provider: WalletConnectProvider; address: string; chainId: number }

export type WalletConnect = {
  /**
   * Proposes a session for these chains; `onUri` gets the `wc:` pairing URI (a QR code, a copy
   * button, walletLinks). Resolves once the phone approves; rejects with WalletConnectRejected,
   * WalletConnectTimeout (the proposal expired, 5 minutes), or an AbortError once `signal` aborts
   * (a session the phone approves after that is ended at once).
   */
  connect(args: { chains: number[]; onUri: (uri: string) => void; signal?: AbortSignal }): Promise<Connected>
  /** The live session this partner's storage keeps (after a reload), else undefined; loads nothing without one. */
  restore(args?: { chains?: number[] }): Promise<Connected | undefined>
  /** Ends the current session, on the phone too when the relay can be reached. */
  disconnect(): Promise<void>
  /** Lets go of the relay and this page's client (the widget unmounted); the session stays for a later page. */
  close(): Promise<void>
}

export type WalletConnectOptions = {
  config: WalletConnectConfig
  /** Whose storage: the partner and its service (services.config). */
  scope: StorageScope
  /** The wallet shows it: "<appName> wants to connect". */
  appName?: string
  /** The page's origin, as the wallet and Verify see it (default: location.origin). */
  origin?: string
  /** Core's records; default: the partner's part of localStorage (memory where there is none). */
  storage?: KeyValueStorage
  /** Where the live session is noted for walletConnectSaved; default: the partner's part of localStorage. */
  marks?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  /** Timeouts and expiry, faked in tests. */
  clock?: Clock
  /** Tests: another client than sign-client. */
  init?: (options: Record<string, unknown>) => Promise<SignClientLike>
}

const noop = () => {}
/** A pino-shaped logger that keeps and prints nothing. */
function silentLogger() {
  const logger: Record<string, unknown> = { level: 'silent', trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, silent: noop }
  logger.child = () => logger
  return logger
}

/** A short name per partner and service: core keeps one instance per storage prefix in a page. */
function prefixOf({ partner, apiBase }: StorageScope): string {
  let hash = 0x811c9dc5
  for (const char of JSON.stringify([partner, apiBase])) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193)
  return `stablecoin-widget-${(hash >>> 0).toString(36)}`
}

const clients = new Map<string, Promise<SignClientLike>>()

export function createWalletConnect(options: WalletConnectOptions): WalletConnect {
  const problem = walletConnectProblem(options.config)
  if (problem) throw new WalletConnectError(4900, 'WalletConnect is not set up for this partner', { details: problem })
  const { projectId, relayUrl } = options.config
  const clock = options.clock ?? systemClock
  const now = () => clock.now()
  const marks = options.marks ?? partnerStorage(options.scope)
  const prefix = prefixOf(options.scope)
  let current: (SessionProvider & { topic: string; connected: Connected }) | undefined

  const client = (): Promise<SignClientLike> => {
    let made = clients.get(prefix)
    if (!made) {
      const init = options.init ?? ((o) => SignClient.init(o) as unknown as Promise<SignClientLike>)
      made = init({
        projectId,
        ...(relayUrl ? { relayUrl } : {}),
        metadata: {
          name: options.appName ?? 'Stablecoin widget',
          description: 'Pay with your wallet',
          url: options.origin ?? globalThis.location?.origin ?? '',
          icons: [],
        },
        storage: options.storage ?? webKeyValueStorage(partnerStorage(options.scope)),
        customStoragePrefix: prefix,
        telemetryEnabled: false,
        logger: silentLogger(),
      }).then((c) => {
        // Verify: kept with WalletConnect's relay, where its attestation lets the buyer's wallet tell
        // this page from a copy of it; skipped with a relay of the partner's own (the sandbox's, a
        // private one), where verify.walletconnect.org is no part of the path and, unreachable,
        // would hold every proposal and request for its 5 s timer.
        if (relayUrl) {
          c.core.verify.register = async () => ''
          c.core.verify.resolve = async () => undefined
        }
        return c
      })
      made.catch(() => clients.delete(prefix))
      clients.set(prefix, made)
    }
    return made
  }

  const mark = (session?: Session) => {
    try {
      if (session) marks?.setItem(SESSION_MARK, JSON.stringify({ expiry: session.expiry }))
      else marks?.removeItem(SESSION_MARK)
    } catch {
      // Only a hint for the next page: without it, that page does not offer to resume.
    }
  }

  const reason = { code: 6000, message: 'User disconnected.' }
  /** The provider for this session; another session open here is ended first, on the phone too. */
  const open = (c: SignClientLike, session: Session, wanted?: number[]): Connected => {
    if (current?.topic === session.topic) return current.connected
    if (current) {
      current.end('widget')
      c.disconnect({ topic: current.topic, reason }).catch(noop)
    }
    const chainId = firstChain(session, wanted) as number
    const opened = createSessionProvider(c, session.topic, {
      chainId,
      clock,
      onEnd: () => {
        if (current?.topic === session.topic) current = undefined
        mark()
      },
    })
    const connected = { provider: opened.provider, address: opened.provider.address, chainId }
    current = { ...opened, topic: session.topic, connected }
    mark(session)
    return connected
  }

  return {
    async connect({ chains, onUri, signal }) {
      signal?.throwIfAborted()
      const c = await client()
      signal?.throwIfAborted()
      const namespaces = { eip155: { chains: chains.map((id) => `eip155:${id}`), methods: METHODS, events: EVENTS } }
      let proposal: Awaited<ReturnType<SignClientLike['connect']>>
      try {
        proposal = await c.connect({ optionalNamespaces: namespaces })
      } catch (error) {
        throw walletConnectErrorOf(error, 'connect', PROMPT_MS)
      }
      const abandon = (session: Session) => c.disconnect({ topic: session.topic, reason }).catch(noop)
      const approved = new Promise<Session>((resolve, reject) => {
        const stop = () => reject(signal?.reason ?? new DOMException('connect was aborted', 'AbortError'))
        signal?.addEventListener('abort', stop, { once: true })
        proposal.approval().then(
          (s) => {
            signal?.removeEventListener('abort', stop)
            if (signal?.aborted) abandon(s)
            else resolve(s)
          },
          (error) => {
            signal?.removeEventListener('abort', stop)
            reject(walletConnectErrorOf(error, 'connect', PROMPT_MS))
          },
        )
        if (signal?.aborted) stop()
      })
      approved.catch(noop)
      if (proposal.uri) onUri(proposal.uri)
      const session = await approved
      const held = accountsOf(session)
      if (!isLive(session, now()) || !chains.some((id) => held.has(id))) {
        await abandon(session)
        throw new WalletConnectError(5100, 'The wallet approved none of the chains asked for', { details: chains.join(', ') })
      }
      return open(c, session, chains)
    },

    async restore({ chains } = {}) {
      // Without a note of a live session, the client is not started (it would open the relay).
      if (notedExpiry(marks, now()) === undefined) return undefined
      const c = await client()
      const session = c.session
        .getAll()
        .filter((s) => isLive(s, now()))
        .sort((a, b) => b.expiry - a.expiry)[0]
      if (!session) {
        mark()
        return undefined
      }
      return open(c, session, chains)
    },

    async disconnect() {
      const ending = current
      if (!ending) return
      const c = await client()
      ending.end('widget')
      try {
        await c.disconnect({ topic: ending.topic, reason })
      } catch {
        // Offline: forgotten here at least; the phone's copy expires on its own.
        await c.session.delete?.(ending.topic, reason).catch(noop)
      }
    },

    async close() {
      current?.detach()
      current = undefined
      const made = clients.get(prefix)
      clients.delete(prefix)
      const c = await made?.catch(() => undefined)
      if (!c) return
      await c.core.relayer.transportClose().catch(noop)
      c.core.heartbeat.stop()
    },
  }
}
