import { lazyPart } from '../../kernel/lazyPart'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import { anyStored, flowKey, lazyCheck } from '../../storage/storedCheck'
import type { StoredAccount } from './machine'

/** Long enough for a bank transfer to arrive; short enough that a shared device forgets. */
export const RECORD_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

/** The record's check (zod): fetched when a record is stored, else once the first screen is up. */
export const onboardingChecks = lazyPart(() => import('./storedChecks'))
export const onboardingKeys = [flowKey('onboarding')]

/**
 * The bank flow's record, in the partner origin's storage, where every script there can read it:
 * only what resuming needs (no walletId once the account is open), stamped, and forgotten after
 * 30 days. The flow clears it once the account is funded, or when the buyer says "Not you?".
 */
export function onboardingStore(storage: Storage | undefined, now: () => number = Date.now): FlowStore<StoredAccount> {
  const inner = createFlowStore(
    storage,
    'onboarding',
    lazyCheck(onboardingChecks, (m) => m.record),
  )
  const save = (value: StoredAccount) => {
    const { walletId, ...open } = value
    inner.save({ ...(value.virtualAccountId ? open : value), savedAt: now() })
  }
  return {
    key: inner.key,
    load() {
      const found = inner.load()
      if (!found) {
        // Unreadable (a fee that cannot be shown, a missing id): gone, not left for the next visit.
        if (anyStored(storage, onboardingKeys)) inner.clear()
        return undefined
      }
      const { savedAt, ...value } = found
      if (savedAt === undefined) {
        // Written before records were stamped: the 30 days start now.
        save(value)
        return value
      }
      if (now() - savedAt > RECORD_MAX_AGE_MS) {
        inner.clear()
        return undefined
      }
      return value
    },
    save,
    clear: inner.clear,
    ready: onboardingChecks.load,
  }
}
