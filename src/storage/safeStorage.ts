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
