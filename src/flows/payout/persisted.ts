// What the payout keeps across a reload, in the partner origin's storage: the payout once it
// exists (its hash once sent: a reload follows it, never asks again), the idempotency reference
// before the first attempt to create, and every deposit address already sent to (never twice).
// Ids, amounts and public addresses only: no beneficiary.
import * as z from 'zod/mini'
import { createFlowStore, type FlowStore } from '../../storage/flowStore'
import type { PayoutRecord, QuoteAsk } from './machine'

const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))

const record = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  depositAddress: address,
  depositAmount: z.string().check(z.regex(/^\d+(\.\d+)?$/)),
  chain: z.number().check(z.int(), z.positive()),
  expiresAt: z.string(),
  token: address,
  symbol: z.string().check(z.minLength(1), z.maxLength(12)),
  decimals: z.number().check(z.int(), z.gte(0), z.lte(36)),
  fiatAmount: z.string(),
  fiatCurrency: z.string(),
  rail: z.string(),
  settlement: z.string(),
  sender: z.optional(address),
  txHash: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/))),
  createdAt: z.number(),
})

export function payoutStore(storage: Storage | undefined): FlowStore<PayoutRecord> {
  return createFlowStore(storage, 'payout', (value) => {
    const parsed = record.safeParse(value)
    return parsed.success ? parsed.data : undefined
  })
}

const pending = z.object({ reference: z.string().check(z.minLength(1), z.maxLength(64)), ask: z.string() })

/**
 * The reference sent with POST /bank/payout, written before the first attempt: a retry after a
 * lost answer (or a reload) for the same request sends the same one, and gets the same payout.
 */
export function referenceStore(storage: Storage | undefined) {
  const inner = createFlowStore(storage, 'payout-reference', (value) => {
    const parsed = pending.safeParse(value)
    return parsed.success ? parsed.data : undefined
  })
  return {
    /** The reference for this request: the stored one if it was for the same request, else a new one (stored first). */
    forAsk(ask: QuoteAsk, fresh: () => string): string {
      const key = askKey(ask)
      const found = inner.load()
      if (found && found.ask === key) return found.reference
      const reference = fresh()
      inner.save({ reference, ask: key })
      return reference
    },
    clear: inner.clear,
  }
}

export const askKey = (ask: QuoteAsk) => JSON.stringify([ask.kind, ask.amount, ask.currency, ask.country, ask.rail ?? ''])

/** A reference of 32 random hex characters (the contract allows 64). */
export function newReference(random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  return `po_${[...random(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

const SPENT = 'stablecoin-widget:v1:payout-spent'

/** Deposit addresses already sent to from this browser: one address serves one payout. */
export function spentAddresses(storage: Storage | undefined) {
  const read = (): string[] => {
    try {
      const list = JSON.parse(storage?.getItem(SPENT) ?? '[]')
      return Array.isArray(list) ? list.filter((a): a is string => typeof a === 'string') : []
    } catch {
      return []
    }
  }
  return {
    has: (address: string) => read().includes(address.toLowerCase()),
    add(address: string) {
      try {
        storage?.setItem(SPENT, JSON.stringify([...read().filter((a) => a !== address.toLowerCase()), address.toLowerCase()].slice(-50)))
      } catch {
        // without storage the status check before each send still sees a funded address
      }
    },
  }
}
export type SpentAddresses = ReturnType<typeof spentAddresses>
export type ReferenceStore = ReturnType<typeof referenceStore>
