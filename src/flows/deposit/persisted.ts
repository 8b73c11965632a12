import { lazyPart } from '../../kernel/lazyPart'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import { flowKey, lazyCheck } from '../../storage/storedCheck'
import type { Tracking } from './machine'

/** The record's check (zod): fetched when a record is stored, else once the first screen is up. */
export const depositChecks = lazyPart(() => import('./storedChecks'))
export const depositKeys = [flowKey('deposit')]

/**
 * `key` as the browser names it (a partner's storage scopes its keys: storage/safeStorage.ts): other
 * tabs' `storage` events carry it, and the send's tab lock is named after it.
 */
export function depositStore(storage: Storage | undefined): FlowStore<Tracking> {
  const key = (storage as { at?: (key: string) => string } | undefined)?.at?.(depositKeys[0]) ?? depositKeys[0]
  return {
    ...createFlowStore(
      storage,
      'deposit',
      lazyCheck(depositChecks, (m) => m.tracking),
    ),
    key,
    ready: depositChecks.load,
    arrived: depositChecks.arrived,
  }
}
