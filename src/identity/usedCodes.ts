// Single-use identity codes, remembered on this device so none is ever sent twice.
export const USED_CODES_KEY = 'stablecoin-widget:v1:used-auth-codes'
const USED = USED_CODES_KEY

/** Auth codes are single use: one the service has seen (accepted or not) is never sent again. */
export function usedAuthCodes(storage: Storage | undefined) {
  const read = (): string[] => {
    try {
      const list = JSON.parse(storage?.getItem(USED) ?? '[]')
      return Array.isArray(list) ? list.filter((c) => typeof c === 'string') : []
    } catch {
      return []
    }
  }
  return {
    has: (code: string) => read().includes(code),
    add(code: string) {
      try {
        storage?.setItem(USED, JSON.stringify([...read().filter((c) => c !== code), code].slice(-20)))
      } catch {
        // without storage the code is still dropped from the address bar
      }
    },
  }
}
