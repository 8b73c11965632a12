// The buyer the service knows: the ids /fiat/onboard returned and the wallet they were made for.
// Every bank flow reuses it (a virtual account, a one-off deposit, a payout), so a buyer verifies
// once. It sits in the partner origin's storage: ids and a public address only, stamped, and
// forgotten after 30 days or when the buyer says "Not you?". A link the partner signed may name the
// buyer instead (accountId, walletId, walletAddress: a returning buyer on a new device).
import type { WidgetConfig } from '../config/config'
import { createFlowStore } from '../storage/flowStore'
import { flowKey, lazyCheck } from '../storage/storedCheck'
import { identityChecks } from './checks'

export type BuyerAccount = { accountId: string; walletId: string; wallet: string }

export const ACCOUNT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

export type BuyerAccountStore = {
  load(): BuyerAccount | undefined
  save(account: BuyerAccount): void
  clear(): void
  /** "Not you?": the account and every record a bank flow kept for that buyer go. */
  forget(): void
}

/**
 * The records the bank flows keep for one buyer (flowStore names): none may outlive "Not you?". A
 * test holds this list to every record the bank flows write (test/unit/storage/partnerScope.test.tsx).
 */
export const BANK_RECORDS = [
  'account',
  'onboarding',
  'payout',
  'payout-reference',
  'payout-signed',
  'cardPayout',
  'cardPayout-reference',
  'bankDeposit',
  'bankDeposit-attempt',
]

/** Removes every bank-flow record of this partner's on this device: the account, an opened account, a payout, a deposit, their keys. */
export function forgetBuyer(storage: Storage | undefined): void {
  try {
    for (const name of BANK_RECORDS) storage?.removeItem(flowKey(name))
  } catch {
    // no storage: nothing was kept
  }
}

export function buyerAccount(storage: Storage | undefined, now: () => number = Date.now): BuyerAccountStore {
  const inner = createFlowStore(
    storage,
    'account',
    lazyCheck(identityChecks, (m) => m.account),
  )
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
    forget: () => forgetBuyer(storage),
  }
}

/**
 * The buyer a bank flow starts with. A link signed with all three of accountId, walletId and
 * walletAddress names its buyer: kept as a freshly onboarded account (over one kept for another
 * buyer), as the partner's server vouches for it. Otherwise the buyer this device kept, unless the
 * link is signed for another wallet (then it is another buyer's payment).
 */
export function knownBuyer(
  accounts: BuyerAccountStore,
  { accountId, walletId, walletAddress: wallet }: Pick<WidgetConfig, 'walletAddress' | 'accountId' | 'walletId'>,
): BuyerAccount | undefined {
  const signed = accountId && walletId && wallet ? { accountId, walletId, wallet } : undefined
  if (signed) accounts.save(signed)
  const known = signed ?? accounts.load()
  return known && (!wallet || known.wallet.toLowerCase() === wallet.toLowerCase()) ? known : undefined
}
