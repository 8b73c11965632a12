// Whose a kept payout is, and who may see it: the machine decides what to resume with it, the
// store (persisted.ts) which record to load. Pure: no storage.

/** Whose a payout is: the paying account and the wallet it was made for. */
export type Owner = { accountId: string; wallet: string }

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** A record is resumed only for its own buyer, and under a link signed for a wallet, only for that wallet. */
export function ownedBy(rec: Owner, buyer: Owner | undefined, linkWallet?: string): boolean {
  if (!buyer) return false
  if (rec.accountId !== buyer.accountId || !same(rec.wallet, buyer.wallet)) return false
  return !linkWallet || same(rec.wallet, linkWallet)
}

/**
 * Who may go on from the connect step with no wallet, to pay from another wallet or an exchange:
 * the account's wallet must already be known (a link signed for it, or the buyer kept on this
 * device), since the payout is the account's (partner-api.md: accountId) and a buyer the service
 * does not know is verified with the wallet connected.
 */
export const byAddressOwner = (buyerWallet: string | undefined, linkWallet: string | undefined): string | undefined => linkWallet ?? buyerWallet
