// The payout once it exists, as it is kept (persisted.ts): what resuming needs, its result once it
// ended, nothing personal (no beneficiary), and whose it is. Pure.
import type { PayoutStatus } from '../../api/payout'
import { payoutFinal } from '../../lib/status/payout'

export type PayoutRecord = {
  id: string
  depositAddress: string
  depositAmount: string
  chain: number
  expiresAt: string
  token: string
  symbol: string
  decimals: number
  fiatAmount: string
  fiatCurrency: string
  /** A bank payout's rail (a card payout has none). */
  rail?: string
  /** The rail's settlement label from GET /limits, else the quote's estimatedSettlement (a bank payout's). */
  settlement?: string
  /** A card payout's card, as the service names it (never its number). */
  card?: { brand: string; last4: string }
  /** The buyer it belongs to: the paying account and its wallet. Resumed for that buyer only. */
  accountId: string
  wallet: string
  /**
   * When the wallet was asked for the transfer (kept before asking). Without a hash it means a
   * transfer may be waiting in the wallet or on its way: never asked for again on its own.
   */
  promptedAt?: number
  /**
   * When the transfer was offered as a request another wallet or an exchange can pay (byAddress.ts):
   * a transfer from elsewhere may be on its way, unseen yet. A wallet connected after it sends only
   * on the buyer's word that none was made (funding.ts).
   */
  offeredAt?: number
  /** The wallet that sent, once it did; the transfer's hash. */
  sender?: string
  txHash?: string
  /** The status it ended with, once final: a reload shows this result until the buyer starts a new payout. */
  final?: PayoutStatus
  createdAt: number
}

export const isFinalPayoutStatus = (status: string) => (payoutFinal as readonly string[]).includes(status)

/** The wallet was asked for this payout's transfer and never answered with a hash (a reload, a lost answer). */
export const promptedUnanswered = (record: PayoutRecord) => record.promptedAt !== undefined && !record.txHash
