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
