// What the one-off deposit keeps in the partner origin's storage (readable by every script there):
// the service's bank details and ids, never the buyer's. Two records:
// - the deposit, from the moment it exists until the buyer starts a new one (or 30 days pass), so a
//   reload resumes it at any status;
// - the attempt, written before the first create request: the reference (the idempotency key) and
//   what it asked for, so a retry after a lost answer sends the same one and gets the same deposit.
import * as z from 'zod/mini'
import { bankDepositDetails, bankDepositStatuses } from '../../api/bankDeposit'
import { createFlowStore } from '../../storage/flowStore'
import type { StatusView, StoredDeposit } from './machine'

export const DEPOSIT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000
/** An attempt whose answer was lost is retried soon, or never: after a day a new one starts. */
export const ATTEMPT_MAX_AGE_MS = 24 * 60 * 60 * 1000

const text = z.string().check(z.minLength(1))
const kept = z.object({
  deposit: z.object({
    id: text,
    rail: text,
    expiresAt: text,
    details: bankDepositDetails,
    currency: text,
    amount: text,
    country: z.optional(z.string()),
    wallet: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
    createdAt: z.number(),
  }),
  status: z.object({
    id: text,
    status: z.enum(bankDepositStatuses),
    fiatAmount: z.optional(z.string()),
    cryptoAmount: z.optional(z.string()),
    cryptoCurrency: z.optional(z.string()),
    settlementTxHash: z.optional(z.string()),
    reason: z.optional(z.string()),
  }),
})
export type KeptDeposit = { deposit: StoredDeposit; status: StatusView }

const attempt = z.object({
  reference: z.string().check(z.minLength(1), z.maxLength(64)),
  accountId: text,
  currency: text,
  amount: text,
  savedAt: z.number(),
})
export type Attempt = z.infer<typeof attempt>

export type Store<T> = { load(): T | undefined; save(value: T): void; clear(): void }

function aged<T extends object>(storage: Storage | undefined, name: string, schema: z.ZodMiniType, at: (value: T) => number, maxAge: number, now: () => number): Store<T> {
  const inner = createFlowStore(storage, name, (value) => {
    const parsed = schema.safeParse(value)
    return parsed.success ? (parsed.data as T) : undefined
  })
  return {
    load() {
      const found = inner.load()
      if (found && now() - at(found) <= maxAge) return found
      inner.clear()
      return undefined
    },
    save: inner.save,
    clear: inner.clear,
  }
}

export function depositStore(storage: Storage | undefined, now: () => number = Date.now): Store<KeptDeposit> {
  return aged<KeptDeposit>(storage, 'bankDeposit', kept, (v) => v.deposit.createdAt, DEPOSIT_MAX_AGE_MS, now)
}

export function attemptStore(storage: Storage | undefined, now: () => number = Date.now): Store<Attempt> {
  return aged<Attempt>(storage, 'bankDeposit-attempt', attempt, (v) => v.savedAt, ATTEMPT_MAX_AGE_MS, now)
}

/** A fresh idempotency key (the contract allows 64 characters): 16 random bytes, hex. */
export function newReference(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16))
  return `bd-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}
