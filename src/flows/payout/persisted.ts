// What the payout keeps across a reload, in the partner origin's storage: the payout once it
// exists, with the buyer it belongs to (its hash once sent: a reload follows it, never asks again;
// the mark that the wallet was asked, so a reload never asks again on its own), the idempotency
// reference before the first attempt to create, and every deposit address already sent to (never
// twice). Ids, amounts and public addresses only: no beneficiary (a request comes here as its
// digest, creating.ts's requestDigest, and is kept as one).
import { lazyPart } from '../../kernel/lazyPart'
import { createFlowStore } from '../../storage/flowStore'
import { flowKey, lazyCheck } from '../../storage/storedCheck'
import type { Pending } from './base'
import type { PayoutRecord } from './record'
import { type Owner, ownedBy } from './owner'

/** Like the buyer's account and the other flows' records: a shared device forgets. */
export const PAYOUT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

/** The records' checks (zod): fetched when a record is stored, else once the first screen is up. */
export const payoutChecks = lazyPart(() => import('./storedChecks'))
export const payoutKeys = ['payout', 'payout-reference', 'payout-signed'].map(flowKey)

/** Where each payout keeps its records: a bank payout and a card payout of one buyer never replace each other. */
export type PayoutName = 'payout' | 'cardPayout'
export const keysOf = (name: PayoutName) => (name === 'payout' ? payoutKeys : [name, `${name}-reference`, 'payout-signed'].map(flowKey))
const payoutRecord = lazyCheck(payoutChecks, (m) => m.payoutRecord)
const claim = lazyCheck(payoutChecks, (m) => m.claim)
const claimList = lazyCheck(payoutChecks, (m) => m.claimList)
const pendingPayout = lazyCheck(payoutChecks, (m) => m.pendingPayout)

/** A reference claimed for one request (its digest), or kept for our own. */
export type Claim = { reference: string; request: string; savedAt: number }

export type PayoutStore = {
  key: string
  /** The buyer's payout (without a buyer: the latest kept, for tests and tools); aged on read. */
  load(owner?: Owner, linkWallet?: string): PayoutRecord | undefined
  /** Keeps this payout in place of the same payout or the same buyer's earlier one; other buyers' stay. */
  save(value: PayoutRecord): void
  /** Drops one payout (without an id: every payout kept). */
  clear(id?: string): void
  ready(): Promise<unknown>
  /** Resolves once the check is here, whoever fetched it (never rejects). */
  arrived(): Promise<unknown>
}

/**
 * One record per buyer, so a payout another buyer sent from this device stays for them to follow
 * when they come back (never shown to anyone else). Forgotten 30 days after creation, except a
 * record with a hash: it is followed until its status is final, and then kept with that result
 * (a reload shows it) until the buyer starts a new payout or the 30 days are over.
 */
export function payoutStore(storage: Storage | undefined, now: () => number = Date.now, name: PayoutName = 'payout'): PayoutStore {
  const inner = createFlowStore(storage, name, (value) => {
    if (!value || typeof value !== 'object' || !Array.isArray((value as { records?: unknown }).records)) return undefined
    const records = (value as { records: unknown[] }).records.flatMap((r) => {
      const parsed = payoutRecord(r)
      return parsed ? [parsed] : []
    })
    return { records }
  })
  // A payout on its way is kept until it ends; its result, like an unfunded payout, for 30 days.
  const fresh = (r: PayoutRecord) => (!!r.txHash && !r.final) || now() - r.createdAt <= PAYOUT_MAX_AGE_MS
  const read = () => {
    const all = inner.load()?.records ?? []
    const kept = all.filter(fresh)
    if (kept.length !== all.length) write(kept)
    return kept
  }
  const write = (records: PayoutRecord[]) => (records.length ? inner.save({ records }) : inner.clear())
  return {
    key: inner.key,
    load(owner, linkWallet) {
      const records = read()
      if (!owner) return records.at(-1)
      return records.filter((r) => ownedBy(r, owner, linkWallet)).at(-1)
    },
    save(value) {
      const others = read().filter((r) => r.id !== value.id && r.accountId !== value.accountId)
      // A few buyers on one device at most; the oldest record without a hash goes first.
      while (others.length >= 4) {
        const i = others.findIndex((r) => !r.txHash)
        others.splice(i >= 0 ? i : 0, 1)
      }
      write([...others, value])
    },
    clear(id) {
      write(id === undefined ? [] : read().filter((r) => r.id !== id))
    },
    ready: payoutChecks.load,
    arrived: payoutChecks.arrived,
  }
}

/** A request's digest salted with a reference (creating.ts: requestDigest): the only form in which a request reaches these stores. */
export type DigestOf = (reference: string) => string

/**
 * A partner's signed `reference` is one payout: the first request sent under it claims it (before
 * the first attempt), and a different request is never sent under it from this device (the service
 * would hand back the first payout). A claim the service refused outright (it created nothing) is
 * released, so a corrected request may use it.
 */
function signedReferences(storage: Storage | undefined, now: () => number = Date.now) {
  const inner = createFlowStore(storage, 'payout-signed', (value) => {
    const list = claimList(value)
    return list ? { claims: list.filter((c) => now() - c.savedAt <= PAYOUT_MAX_AGE_MS) } : undefined
  })
  const write = (list: Claim[]) => (list.length ? inner.save({ claims: list.slice(-10) }) : inner.clear())
  return {
    /** True when this request may go under the reference: unclaimed (claimed now), or claimed by this very request. */
    claim(reference: string, request: DigestOf): boolean {
      const list = inner.load()?.claims ?? []
      const digest = request(reference)
      const found = list.find((c) => c.reference === reference)
      if (found) return found.request === digest
      write([...list, { reference, request: digest, savedAt: now() }])
      return true
    },
    release(reference: string) {
      write((inner.load()?.claims ?? []).filter((c) => c.reference !== reference))
    },
  }
}

/**
 * The reference sent with POST /bank/payout, written before the first attempt. It belongs to
 * exactly one request (quote, account, beneficiary, purpose): a retry of that request after a lost
 * answer (or a reload) sends the same one and gets the same payout; any other request gets a new one.
 */
export function referenceStore(storage: Storage | undefined, now: () => number = Date.now, name: PayoutName = 'payout') {
  const inner = createFlowStore(storage, `${name}-reference`, claim)
  return {
    /** The reference for this request: the stored one if it was made for this very request, else a new one (stored first). */
    forRequest(request: DigestOf, fresh: () => string): string {
      const found = inner.load()
      if (found && now() - found.savedAt <= PAYOUT_MAX_AGE_MS && found.request === request(found.reference)) return found.reference
      const reference = fresh()
      inner.save({ reference, request: request(reference), savedAt: now() })
      return reference
    },
    /** Forgets our own reference (a new request, start over, a final payout); a signed one's claim stays. */
    clear: inner.clear,
    ready: payoutChecks.load,
    ...signedReferences(storage, now),
  }
}
export type ReferenceStore = ReturnType<typeof referenceStore>

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

/**
 * The payout the identity steps interrupt (a full navigation to the identity provider and back), in
 * this tab's sessionStorage: kept while those steps show, taken (read once, removed) on the way
 * back. The price goes with it (its expiry still decides: an expired one is asked again before
 * anything is created); the wallet without its connection.
 */
export function pendingStore(session: Storage | undefined, name: PayoutName = 'payout') {
  const inner = createFlowStore(session, `${name}-pending`, pendingPayout)
  return {
    key: inner.key,
    put({ quoted, funder, limits: _, ...pending }: Pending) {
      inner.save({
        ...pending,
        ...(funder ? { funder: { sender: funder.sender, ...(funder.byAddress ? { byAddress: true as const } : {}) } } : {}),
        ...(quoted ? { quoted: { quote: quoted.quote, quotedAt: quoted.quotedAt } } : {}),
      })
    },
    take(): Pending | undefined {
      const found = inner.load()
      inner.clear()
      return found
    },
    clear: () => inner.clear(),
  }
}

export type PendingStore = ReturnType<typeof pendingStore>
