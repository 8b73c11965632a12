// localStorage when the browser lets us use it (private modes and sandboxed frames may not).
export function safeLocalStorage(): Storage | undefined {
  try {
    const storage = globalThis.localStorage
    storage.getItem('probe')
    return storage
  } catch {
    return undefined
  }
}

/** sessionStorage (this tab only) when the browser lets us use it. */
export function safeSessionStorage(): Storage | undefined {
  try {
    const storage = globalThis.sessionStorage
    storage.getItem('probe')
    return storage
  } catch {
    return undefined
  }
}

/**
 * The tab's storage before any partner is known, for one record only: the page's own link as
 * signed (config/pageLink.ts), whose key is that link and so names its partner and service.
 */
export const linkSessionStorage = safeSessionStorage

/**
 * Whose records: a partner (the registry entry a hosted page or frame was opened for; none in
 * script mode, where the storage is the partner's own origin's) on one service.
 */
export type StorageScope = { partner?: string; apiBase: string }

/** Where every key of the widget's starts (the rate limiter's slots, unscoped, too). */
export const NS = 'stablecoin-widget:v1'

/**
 * One partner's part of a storage, on one service. Every partner's hosted page shares the widget's
 * origin: each key read or written here carries both (`stablecoin-widget:v1["acme","https://api…"]:flow:payout`),
 * so no other partner reads, resumes or forgets it. A JSON array ends where it ends: no partner id
 * or service can make its keys start like another's. A record without them (an older widget's) is
 * never read, since whose it is cannot be proven. Keys all start with `stablecoin-widget:v1`; `at`
 * gives a key as the storage (and other tabs' `storage` events) name it.
 */
export function scopedStorage(storage: Storage | undefined, { partner, apiBase }: StorageScope): Storage | undefined {
  const scope = NS + JSON.stringify([partner, apiBase])
  const at = (key: string) => scope + key.slice(NS.length)
  return (
    storage &&
    ({
      getItem: (key: string) => storage.getItem(at(key)),
      setItem: (key: string, value: string) => storage.setItem(at(key), value),
      removeItem: (key: string) => storage.removeItem(at(key)),
      at,
    } as Partial<Storage> as Storage)
  )
}

/** This partner's part of localStorage, or with `tab` of this tab's sessionStorage (see scopedStorage). */
export const partnerStorage = (scope: StorageScope, tab?: boolean) => scopedStorage(tab ? safeSessionStorage() : safeLocalStorage(), scope)
