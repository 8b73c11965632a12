// What the one-off deposit keeps in the partner origin's storage (readable by every script there):
// the service's bank details and ids, never the buyer's. Two records, and a third in this tab:
// - the deposit, from the moment it exists until the buyer starts a new one (or 30 days pass), so a
//   reload resumes it at any status;
// - the attempt, written before the first create request: the reference (the idempotency key) and
//   what it asked for, so a retry after a lost answer sends the same one and gets the same deposit;
// - a higher verification tier's detour (sessionStorage): whose deposit and the form as asked, kept
//   while the identity steps show and taken on the way back from the identity provider.
import { lazyPart } from '../../kernel/lazyPart'
import { createFlowStore } from '../../storage/flowStore'
import { flowKey, lazyCheck } from '../../storage/storedCheck'
import type { Pending } from './higherTier'
import type { StatusView, StoredDeposit } from './machine'

export const DEPOSIT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000
/** An attempt whose answer was lost is retried soon, or never: after a day a new one starts. */
export const ATTEMPT_MAX_AGE_MS = 24 * 60 * 60 * 1000

export type KeptDeposit = { deposit: StoredDeposit; status: StatusView }

export type Attempt = { reference: string; accountId: string; currency: string; amount: string; savedAt: number }

/** The records' checks (zod): fetched when a record is stored, else once the first screen is up. */
export const bankDepositChecks = lazyPart(() => import('./storedChecks'))
export const bankDepositKeys = [flowKey('bankDeposit'), flowKey('bankDeposit-attempt')]
/** This tab's: the higher tier's detour. */
export const bankDepositSessionKeys = [flowKey('bankDeposit-pending')]

export type Store<T> = { load(): T | undefined; save(value: T): void; clear(): void; ready?(): Promise<unknown> }

function aged<T extends object>(
  storage: Storage | undefined,
  name: string,
  check: (value: unknown) => T | undefined,
  at: (value: T) => number,
  maxAge: number,
  now: () => number,
): Store<T> {
  const inner = createFlowStore(storage, name, check)
  return {
    load() {
      const found = inner.load()
      if (found && now() - at(found) <= maxAge) return found
      inner.clear()
      return undefined
    },
    save: inner.save,
    clear: inner.clear,
    ready: bankDepositChecks.load,
  }
}

export function depositStore(storage: Storage | undefined, now: () => number = Date.now): Store<KeptDeposit> {
  return aged<KeptDeposit>(
    storage,
    'bankDeposit',
    lazyCheck(bankDepositChecks, (m) => m.keptDeposit),
    (v) => v.deposit.createdAt,
    DEPOSIT_MAX_AGE_MS,
    now,
  )
}

export function attemptStore(storage: Storage | undefined, now: () => number = Date.now): Store<Attempt> {
  return aged<Attempt>(
    storage,
    'bankDeposit-attempt',
    lazyCheck(bankDepositChecks, (m) => m.pendingAttempt),
    (v) => v.savedAt,
    ATTEMPT_MAX_AGE_MS,
    now,
  )
}

/** The higher tier's detour (a full navigation to the identity provider and back): kept while its identity steps show, taken (read once, removed) on the way back. */
export function pendingStore(session: Storage | undefined) {
  const inner = createFlowStore(
    session,
    'bankDeposit-pending',
    lazyCheck(bankDepositChecks, (m) => m.tierPending),
  )
  return {
    put: inner.save,
    take(): Pending | undefined {
      const found = inner.load()
      inner.clear()
      return found
    },
    clear: inner.clear,
  }
}

export type PendingStore = ReturnType<typeof pendingStore>
