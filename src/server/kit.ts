// What every route of one handler shares: its checked options, its log, its store (opened on first
// use), its per-user queue and its chains.
import { type ChainClients, createChainClients } from './chainClients'
import { createReceiptReader } from './depositReceipt'
import type { KeyGuard } from './forward'
import type { KitConfig } from './options'
import { openPaymentStore } from './store/openPaymentStore'
import type { PaymentStore } from './store/paymentStore'

export type Kit = {
  config: KitConfig
  log(line: string): void
  logOnce(topic: string, line: string): void
  store(): Promise<PaymentStore>
  /** Per user, one creation at a time in this process. */
  oneAtATime<T>(userId: string, work: () => Promise<T>): Promise<T>
  chainClient: ChainClients
  readReceipt: ReturnType<typeof createReceiptReader>
}

export function createKit(config: KitConfig, given: PaymentStore | Promise<PaymentStore> | undefined, guard: KeyGuard): Kit {
  const { log } = guard
  let store: Promise<PaymentStore> | undefined
  const openStore = () => {
    if (!store) {
      if (given) store = Promise.resolve(given)
      else {
        log('no store given: ownership is kept in memory (PGlite) and forgotten on restart; pass openPaymentStore({ dataDir }) or ({ pool })')
        store = openPaymentStore()
      }
      // A store that fails to open is tried again on the next request.
      store.catch(() => (store = undefined))
    }
    return store
  }
  const chainClient = createChainClients(config.chains, config.timeoutMs)
  // Per user, one creation at a time in this process: a limit is checked and the payment recorded
  // before the next is checked. (Across instances, two at once can both pass: docs/server-store.md.)
  const queues = new Map<string, Promise<unknown>>()
  const oneAtATime = <T>(userId: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(userId) ?? Promise.resolve()
    const mine = previous.then(work, work)
    const tail = mine.catch(() => {})
    queues.set(userId, tail)
    tail.then(() => queues.get(userId) === tail && queues.delete(userId))
    return mine
  }
  return { config, log, logOnce: guard.logOnce, store: openStore, oneAtATime, chainClient, readReceipt: createReceiptReader(chainClient) }
}
