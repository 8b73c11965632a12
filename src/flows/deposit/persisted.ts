import { lazyPart } from '../../kernel/lazyPart'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import { flowKey, lazyCheck } from '../../storage/storedCheck'
import type { Tracking } from './machine'

/** The record's check (zod): fetched when a record is stored, else once the first screen is up. */
export const depositChecks = lazyPart(() => import('./storedChecks'))
export const depositKeys = [flowKey('deposit')]

export function depositStore(storage: Storage | undefined): FlowStore<Tracking> {
  return { ...createFlowStore(storage, 'deposit', lazyCheck(depositChecks, (m) => m.tracking)), ready: depositChecks.load, arrived: depositChecks.arrived }
}
