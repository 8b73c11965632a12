// The checks of stored records use zod, which the first screen does not load: they come in a module
// of their own, fetched at once when a record is stored (the flow shows that it is resuming until
// then) and otherwise once the first screen is up. A record is never read unchecked, and never
// dropped for want of its check: reading it before the check is here throws StoredCheckPending.
import type { LazyPart } from '../kernel/lazyPart'
import { FLOW_KEY_PREFIX } from './flowStore'

export class StoredCheckPending extends Error {
  override name = 'StoredCheckPending'
  constructor() {
    super('A stored record was read before its check arrived')
  }
}

/** A record's check, taken from a module fetched on demand. */
export function lazyCheck<M, T>(part: LazyPart<M>, pick: (module: M) => (value: unknown) => T | undefined): (value: unknown) => T | undefined {
  return (value) => {
    const module = part.get()
    if (!module) throw new StoredCheckPending()
    return pick(module)(value)
  }
}

/** The key of a flowStore record (`createFlowStore(storage, name, …)`). */
export const flowKey = (name: string) => FLOW_KEY_PREFIX + name

/** Whether anything is stored under these keys (read as it is, not checked). */
export function anyStored(storage: Storage | undefined, keys: string[]): boolean {
  try {
    return !!storage && keys.some((key) => storage.getItem(key) != null)
  } catch {
    return false
  }
}

/**
 * Reads now, or once the check is here if it is not yet (a record another tab wrote, say). A fetch
 * of the check that failed (offline) does not drop the read: it runs when a later load succeeds
 * (`arrived`: the first screen's idle preload, or any other use). Returns a cancel.
 */
export function whenChecked(read: () => void, ready?: () => Promise<unknown>, arrived?: () => Promise<unknown>): () => void {
  try {
    read()
    return () => {}
  } catch (error) {
    if (!(error instanceof StoredCheckPending) || !ready) throw error
    return waitFor({ read }, ready, arrived)
  }
}

/**
 * The wait holds only this box (no closure over the caller's scope): cancelled, it lets go of
 * `read` (and of what `read` holds: a disposed flow) even if the check never comes.
 */
function waitFor(box: { read?: () => void }, ready: () => Promise<unknown>, arrived?: () => Promise<unknown>): () => void {
  const run = () => {
    const pending = box.read
    box.read = undefined
    pending?.()
  }
  void ready().then(run, () => arrived?.().then(run))
  return () => (box.read = undefined)
}
