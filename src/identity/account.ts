// The buyer the service knows: the ids /fiat/onboard returned and the wallet they were made for.
// Every bank flow reuses it (a virtual account, a one-off deposit, a payout), so a buyer verifies
// once. It sits in the partner origin's storage: ids and a public address only, stamped, and
// forgotten after 30 days or when the buyer says "Not you?".
import * as z from 'zod/mini'
import { createFlowStore } from '../storage/flowStore'

export type BuyerAccount = { accountId: string; walletId: string; wallet: string }

export const ACCOUNT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

const stored = z.object({
  accountId: z.string().check(z.minLength(1), z.maxLength(128)),
  walletId: z.string().check(z.minLength(1), z.maxLength(128)),
  wallet: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)),
  savedAt: z.number().check(z.nonnegative()),
})

export type BuyerAccountStore = { load(): BuyerAccount | undefined; save(account: BuyerAccount): void; clear(): void }

export function buyerAccount(storage: Storage | undefined, now: () => number = Date.now): BuyerAccountStore {
  const inner = createFlowStore(storage, 'account', (value) => {
    const parsed = stored.safeParse(value)
    return parsed.success ? parsed.data : undefined
  })
  return {
    load() {
      const found = inner.load()
      if (!found || now() - found.savedAt > ACCOUNT_MAX_AGE_MS) {
        inner.clear()
        return undefined
      }
      return { accountId: found.accountId, walletId: found.walletId, wallet: found.wallet }
    },
    save: (account) => inner.save({ ...account, savedAt: now() }),
    clear: inner.clear,
  }
}
