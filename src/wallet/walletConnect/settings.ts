// The partner's WalletConnect settings checked where they are used, and the note of a live
// session: shared by the loader (walletConnectLoader.ts, with the first screens) and the client.
import type { WalletConnectConfig } from '../../config/link'
import { NS } from '../../storage/safeStorage'

/** Where a live session's expiry is noted (seconds), so a page learns of one without loading the client. */
export const SESSION_MARK = `${NS}:wc-session`

const RELAY_WSS = /^wss:\/\/[\w.-]+(:\d+)?(\/[\w./-]*)?$/
const RELAY_LOOPBACK = /^ws:\/\/127\.0\.0\.1(:\d+)?\/?$/

/** The registry's word checked again: a project id, and a relay on wss:, or ws: to this machine in a sandbox build only. */
export function walletConnectProblem(config: WalletConnectConfig | undefined): string | undefined {
  if (typeof config?.projectId !== 'string' || !/^[\w-]{1,64}$/.test(config.projectId)) return 'projectId: must be 1 to 64 of A-Z, a-z, 0-9, _ and -'
  const relay: unknown = config.relayUrl
  if (relay !== undefined && !(typeof relay === 'string' && (RELAY_WSS.test(relay) || (__SANDBOX_BUILD__ && RELAY_LOOPBACK.test(relay)))))
    return 'relayUrl: must be a wss:// address'
  return undefined
}

/** The noted session's expiry, if it is still ahead. */
export function notedExpiry(marks: Pick<Storage, 'getItem'> | undefined, now: number): number | undefined {
  try {
    const expiry = Number(JSON.parse(marks?.getItem(SESSION_MARK) ?? 'null')?.expiry)
    return expiry * 1000 > now ? expiry : undefined
  } catch {
    return undefined
  }
}
