// Where WalletConnect keeps its keys, pairings and sessions: the partner's own part of the widget's
// storage (storage/safeStorage.ts scopedStorage), never WalletConnect's default (IndexedDB and
// localStorage under its own names, which every partner's hosted page on the widget's origin would
// share). The interface is core's IKeyValueStorage; core itself only gets, sets and removes items.
import { NS } from '../../storage/safeStorage'

export type KeyValueStorage = {
  getKeys(): Promise<string[]>
  getEntries<T = unknown>(): Promise<Array<[string, T]>>
  getItem<T = unknown>(key: string): Promise<T | undefined>
  setItem<T = unknown>(key: string, value: T): Promise<void>
  removeItem(key: string): Promise<void>
}

type Items = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

const PREFIX = `${NS}:wc:`
const INDEX = `${NS}:wc-keys`

// Core's records carry BigInt ids: JSON with them tagged.
const write = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v))
const read = (text: string) =>
  JSON.parse(text, (_, v) => (v && typeof v === 'object' && typeof v.$bigint === 'string' && Object.keys(v).length === 1 ? BigInt(v.$bigint) : v))

/**
 * Core's storage over a Storage (the partner's part of localStorage), each record as JSON under
 * `stablecoin-widget:v1:wc:<core's key>`. A record the storage refuses (full, private mode) is kept
 * in memory: it costs the session its survival of a reload, not the page its session.
 */
export function webKeyValueStorage(items: Items | undefined): KeyValueStorage {
  const memory = new Map<string, string>()
  const attempt = <T>(run: (items: Items) => T): T | undefined => {
    try {
      return items && run(items)
    } catch {
      return undefined
    }
  }
  const keys = (): string[] => {
    const text = attempt((s) => s.getItem(INDEX))
    const stored: unknown = text ? read(text) : []
    return [...new Set([...(Array.isArray(stored) ? stored.filter((k) => typeof k === 'string') : []), ...memory.keys()])]
  }
  const text = (key: string) => attempt((s) => s.getItem(PREFIX + key)) ?? memory.get(key)
  const get = <T>(key: string): T | undefined => {
    const found = text(key)
    return found === undefined ? undefined : (read(found) as T)
  }
  return {
    getKeys: async () => keys(),
    getEntries: async <T>() => keys().flatMap((key): Array<[string, T]> => (text(key) === undefined ? [] : [[key, get<T>(key) as T]])),
    getItem: async <T>(key: string) => get<T>(key),
    async setItem(key, value) {
      const json = write(value)
      const known = keys()
      if (attempt((s) => (s.setItem(PREFIX + key, json), true))) memory.delete(key)
      else memory.set(key, json)
      if (!known.includes(key)) attempt((s) => s.setItem(INDEX, write([...known, key])))
    },
    async removeItem(key) {
      const known = keys()
      memory.delete(key)
      attempt((s) => s.removeItem(PREFIX + key))
      if (known.includes(key)) attempt((s) => s.setItem(INDEX, write(known.filter((k) => k !== key))))
    },
  }
}

/** Kept in memory only: gone with the page (no storage, or a test). */
export const memoryKeyValueStorage = () => webKeyValueStorage(undefined)
