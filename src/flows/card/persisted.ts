import { lazyPart } from '../../kernel/lazyPart'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import { flowKey, lazyCheck } from '../../storage/storedCheck'
import type { Purchase } from './machine'

/** The record's check (zod): fetched when a record is stored, else once the first screen is up. */
export const cardChecks = lazyPart(() => import('./storedChecks'))
export const cardKeys = [flowKey('card')]

export function cardStore(storage: Storage | undefined): FlowStore<Purchase> {
  return {
    ...createFlowStore(
      storage,
      'card',
      lazyCheck(cardChecks, (m) => m.purchase),
    ),
    ready: cardChecks.load,
  }
}
