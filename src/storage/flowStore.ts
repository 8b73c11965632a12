// A flow past its point of no return is kept here, so a reload or a later visit resumes it.
// One versioned, namespaced entry per flow; never personal data.
export const FLOW_KEY_PREFIX = 'stablecoin-widget:v1:flow:'

export type FlowStore<T> = {
  /** The key in its storage (scopedStorage's `at` gives it as the browser, and other tabs' `storage` events, name it). */
  key: string
  /** Throws StoredCheckPending while a stored record's check is still on its way (see `ready`). */
  load(): T | undefined
  /** Resolves once a stored record can be checked (storage/storedCheck.ts); absent: always. */
  ready?(): Promise<unknown>
  /** Resolves once the check is here, whoever fetched it (never rejects). */
  arrived?(): Promise<unknown>
  save(value: T): void
  clear(): void
}

export function createFlowStore<T>(storage: Storage | undefined, flow: string, validate: (value: unknown) => T | undefined): FlowStore<T> {
  const key = FLOW_KEY_PREFIX + flow
  return {
    key,
    load() {
      try {
        const raw = storage?.getItem(key)
        return raw ? validate(JSON.parse(raw)) : undefined
      } catch (error) {
        // A check not here yet (storedCheck.ts) is not a bad record: the caller waits for it.
        if (error instanceof Error && error.name === 'StoredCheckPending') throw error
        return undefined
      }
    },
    save(value) {
      try {
        storage?.setItem(key, JSON.stringify(value))
      } catch {
        // private mode or a full quota: the flow goes on, it just cannot survive a reload
      }
    },
    clear() {
      try {
        storage?.removeItem(key)
      } catch {
        // nothing to do
      }
    },
  }
}

export { partnerStorage } from './safeStorage'
