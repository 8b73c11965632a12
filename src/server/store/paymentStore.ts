// Who owns what: every payment the kit creates is recorded against the partner's user, and the
// bank account a user first pays with is bound to that user. The reconciler follows the same rows.
// One type and one object, made of one part per table: payments.ts, bindings.ts, quotes.ts,
// walletChallenges.ts, depositAddresses.ts.
import type { PaymentKind } from './kinds'
import { createBindings } from './bindings'
import { createDepositAddresses } from './depositAddresses'
import { createPayments } from './payments'
import { createQuotes } from './quotes'
import { createWalletChallenges } from './walletChallenges'
import type { Db } from './sql'

export type NewPayment = {
  kind: PaymentKind
  /** The service's id; for a crypto deposit, `cryptoDepositId(provider, txHash)`. */
  id: string
  userId: string
  /** What the status request needs besides the id (a crypto deposit's `{ provider, receipt }`). */
  details?: Record<string, unknown>
  /** The status the service answered on creation, if any: the first change is counted from it. */
  status?: string
  /** For per-user limits: a decimal string and its currency, as the partner counts them. */
  amount?: string
  currency?: string
  /**
   * When the payment was created, on the kit's clock (default: the database's now). Its first look
   * is counted from it; a simulated clock (tests, the bench) passes its own time.
   */
  createdAt?: Date
}

export type Usage = {
  count: number
  /** Sum of the amounts per currency, as decimal strings (never added across currencies). */
  totals: Record<string, string>
}

/** A payment as `listPayments` answers it: what the kit recorded, and the last status it observed. */
export type ListedPayment = {
  kind: PaymentKind
  id: string
  userId: string
  /** The last status seen (on creation or by the reconciler); null when none was seen yet. */
  status: string | null
  /** The service's last status record, as the reconciler checked it against the contract. */
  record: unknown
  /** The reconciler no longer follows it: its status is final (or it was followed too long). */
  final: boolean
  amount: string | null
  currency: string | null
  createdAt: Date
}

/** A message the kit asked a user to sign with a wallet, to link it (src/server/walletLink.ts). */
export type WalletChallenge = {
  nonce: string
  userId: string
  /** Lower case. */
  address: string
  chainId: number
  /** The page the message was given to (its domain and URI). */
  origin: string
  /** The EIP-4361 message, exactly as given. */
  message: string
  expiresAt: Date
}

/** A deposit address the kit asked the service for on a user's behalf, and what its quote asked to pay into it. */
export type DepositAddress = {
  chainId: number
  /** Lower case. */
  address: string
  userId: string
  /** The ERC-20 token's contract, lower case, and the amount in its base units (an integer string). */
  token: string
  units: string
  /** The chain's latest block before the address was given (an integer string): a transfer mined in it or before is not this quote's. */
  fromBlock: string
}

/** A deposit address as recorded: with every token and amount its holder was quoted into it (the latest 20), the latest too. */
export type RecordedDepositAddress = DepositAddress & { quoted: Array<{ token: string; units: string }> }

/** A user's verified account, as /fiat/onboard returned it, and the wallet it was made for: what a link signs for a returning buyer. */
export type KnownBuyer = { accountId: string; walletId: string; wallet: string }

export interface PaymentStore {
  readonly db: Db
  /**
   * Records the payment against the user. True when the payment is that user's (new, or recorded
   * before for the same user); false when another user holds it: the id is never handed over.
   */
  recordPayment(payment: NewPayment): Promise<boolean>
  /** The user who created the payment, or undefined when the kit never recorded it. */
  ownerOf(kind: PaymentKind, id: string): Promise<string | undefined>
  /** What was recorded with the payment for its status requests (a crypto deposit's `{ provider, receipt }`). */
  detailsOf(kind: PaymentKind, id: string): Promise<Record<string, unknown> | undefined>
  /**
   * Binds the account and its wallet (a payout names the account alone) to the user on first use.
   * True when all are (now) that user's; false, binding nothing, when any is another user's. Of
   * two users binding at once, exactly one gets true.
   */
  bindAccount(userId: string, accountId: string, walletId?: string): Promise<boolean>
  /**
   * Keeps the account /fiat/onboard returned for the user (the browser reached the service, not the
   * kit), so a link signed later names it: a returning buyer on a new device. Binds the account and
   * its wallet id to the user first, as bindAccount: false, keeping nothing, when either is another
   * user's. The last one kept is the user's. Ids as the widget takes them (1 to 128 printable
   * characters, no space), the wallet a 0x address.
   */
  rememberBuyer(userId: string, buyer: KnownBuyer): Promise<boolean>
  /** The account last kept for the user by rememberBuyer, or undefined. */
  buyerOf(userId: string): Promise<KnownBuyer | undefined>
  /** Binds an on-chain address (a crypto deposit's sender) to the user, as bindAccount does; case does not matter. */
  bindAddress(userId: string, address: string): Promise<boolean>
  /** The user an address is bound to, or undefined; binds nothing. */
  addressHolder(address: string): Promise<string | undefined>
  /**
   * Records a card page session (a card payout's `cardSession`) as the user's who opened it. True
   * when it is (now) that user's; false when another user's: the id is never handed over.
   */
  bindCardSession(userId: string, sessionId: string): Promise<boolean>
  /** The user who opened the card page session, or undefined; compared exactly, as ownerOf does. */
  cardSessionHolder(sessionId: string): Promise<string | undefined>
  /**
   * Keeps a wallet challenge until it is taken; drops those expired by `now`, and the user's oldest
   * beyond the last 10 (a user asking in a loop fills nothing).
   */
  recordChallenge(challenge: WalletChallenge, now: Date): Promise<void>
  /** Takes the challenge of this nonce: answered once, then gone, whatever the caller does with it. */
  takeChallenge(nonce: string): Promise<WalletChallenge | undefined>
  /** The crypto deposit recorded for this transaction hash, under whatever provider, or undefined. */
  depositOf(txHash: string): Promise<{ id: string; userId: string } | undefined>
  /** Records the amount of a quote the kit handed to the user (a payout names its quote, not its amount). */
  recordQuote(quote: { id: string; userId: string; amount: string; currency: string }): Promise<void>
  /** The quote as recorded, or undefined (unknown, or older than a day: a payout quote holds two hours). */
  quoteOf(id: string): Promise<{ userId: string; amount: string; currency: string } | undefined>
  /**
   * Records the deposit address to the user the kit asked it for. True when it is (now) that user's
   * (their own again: the latest token and amount added to those quoted, the first block); false, recording nothing, when
   * it is another user's. Of two users at once, exactly one gets true.
   */
  recordDepositAddress(record: DepositAddress): Promise<boolean>
  /** The deposit address as recorded (case does not matter), or undefined. */
  depositAddressOf(chainId: number, address: string): Promise<RecordedDepositAddress | undefined>
  /** Those of `addresses` (case does not matter) that are recorded on the chain, read at once; in no particular order. */
  depositAddressesOf(chainId: number, addresses: readonly string[]): Promise<RecordedDepositAddress[]>
  /** The user's payments, newest first (default and most: 100). */
  listPayments(userId: string, options?: { limit?: number }): Promise<ListedPayment[]>
  /** The user's payments of a kind created at or after `since`, whatever their status. */
  usage(userId: string, kind: PaymentKind, since: Date): Promise<Usage>
  /**
   * Calls `listener` after each payment this store object records for its user, so that a
   * reconciler in this process looks at it without waiting for its next round. Returns the way to stop.
   */
  onRecorded?(listener: (payment: { kind: PaymentKind; id: string }) => void): () => void
  close(): Promise<void>
}

export function createPaymentStore(db: Db): PaymentStore {
  return {
    db,
    ...createPayments(db),
    ...createBindings(db),
    ...createWalletChallenges(db),
    ...createQuotes(db),
    ...createDepositAddresses(db),
    close: () => db.close(),
  }
}
