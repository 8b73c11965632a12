// The crypto deposit's states and events as its machine (machine.ts) sees them: its own stages beside
// the connect-wallet sub-machine's (kernel/connectWallet.ts), whose events go under WALLET. Pure.
import type { DepositQuote } from '../../api/schemas'
import type { ChosenWallet, ConnectWalletEvent, ConnectWalletState } from '../../kernel/connectWallet'
import type { FollowEvent, Followed } from '../../kernel/follow'
import type { Priced, QuoteEvent, Stale } from '../../kernel/quote'
import type { Problem, Rejection, SendProblem, Work } from '../../kernel/types'
import type { AmountProblem } from '../../lib/decimal'

export type Form = { amount: string; source: number }
export type Session = {
  wallet: ChosenWallet
  account: string
  /**
   * The partner's kit, asked before confirming, knows no signed-in buyer for this link (401 to a
   * link without a partner token: effects.ts): no deposit can be sent from it, so none is confirmed.
   */
  noSignIn?: true
}

export type QuoteSummary = {
  amountIn: string
  amountOut: string
  fee: string
  sourceChainId: number
  destChainId: number
  sourceSymbol: string
  destSymbol: string
}

export type ReceiptSummary = {
  txHash: string
  logs: Array<{ address: string; topics: string[] }>
}

/** Everything needed to follow a sent deposit; persisted, so it holds no personal data. */
export type Tracking = {
  provider: string
  chainId: number
  /** The deposit's hash; empty while a batch (EIP-5792) has not told it yet. */
  txHash: string
  /** The wallet's id of the batch (approval + deposit) when the wallet sent them as one. */
  callsId?: string
  walletRdns?: string
  summary: QuoteSummary
  createdAt: number
  approvalHash?: string
  originHash?: string
  deliveredHash?: string
  /** The partner's kit answered `POST /deposit/sent` for `txHash` with its `id` (src/flows/deposit/report.ts). */
  kit?: { txHash: string; id: string }
  /**
   * The hash the partner's kit refused to record (403 wallet_not_linked: report.ts): sent, followed
   * as any deposit, but the shop may not show it. Not kept: a reload tells the kit again.
   */
  unrecorded?: string
  /** Paid by address (byAddress.ts): the transfer the buyer sends from elsewhere, watched for until its hash is known. */
  watch?: Watch
}

/** A deposit paid by address: the quote's one transfer, into its deposit address, from the block at the quote on. */
export type Watch = { address: string; token: string; units: string; fromBlock: string; expiresAt: string }

/** A transfer into the deposit address that is not the one asked (another token or amount): said, never followed. */
export type Stray = { txHash: string; token: string; units: string }

/** The by-address stage before its address is shown: the amount, where it is delivered, the quote. */
export type ByAddress = {
  tag: 'byAddress'
  form: Form
  /** Where the deposit is delivered (and any refund goes): the link's fixed address, or the buyer's. */
  receiver: string
  locked: boolean
  /**
   * The partner's kit (walletLink) settles it at the partner's address and credits the signed-in
   * buyer, and no address is fixed: no receiving address is asked, none is sent (the kit names the sender).
   */
  kit?: boolean
  stage: 'form' | 'quoting' | 'refused'
  amount?: string
  error?: FormError | { kind: 'receiver' }
  /** Why the quote cannot be paid by address (byAddressRule.ts), or that its address was offered before. */
  refusal?: 'approval' | 'call' | 'amount' | 'chain' | 'spent' | 'unreadable'
}

export type ByAddressEvent =
  | { type: 'START'; receiver?: string; kit?: boolean }
  | { type: 'EDIT'; amount?: string; source?: number; receiver?: string }
  | { type: 'SUBMIT' }
  | { type: 'QUOTED'; tracking: Tracking }
  | { type: 'QUOTE_FAILED'; problem: Problem }
  | { type: 'QUOTE_REJECTED'; rejection: Rejection }
  | { type: 'REFUSED'; refusal: NonNullable<ByAddress['refusal']> }
  | { type: 'BACK' }
  | { type: 'FOUND'; txHash: string }
  | { type: 'STRAY'; stray: Stray }
  /** After the quote expired, the buyer did not send: start again with a new quote. */
  | { type: 'ABANDON' }

export type SendStep = Work<'switching' | 'checking' | 'linking' | 'approving' | 'approvalConfirming' | 'sending' | 'batching'>

/** What the simulation says leaves the wallet: amounts of tokens, and the network fee. */
export type Preview =
  /**
   * `safe`: eth_simulateV1 judged what leaves the wallet, or (no eth_simulateV1) the guard understands
   * every call. Only a safe preview lets the buyer confirm.
   */
  | { kind: 'ready'; outflow: Array<{ amount: string; symbol: string }>; fee?: string; feeSymbol: string; safe: boolean }
  /** The chain could not be asked (network trouble, no reader): nothing may be sent; try again. */
  | { kind: 'unavailable' }
  /** A balance below the amount: nothing to simulate; the send says the balance before any prompt. */
  | { kind: 'short' }

export type { Stale }

export type { Rejection }

/** The id that names a sent deposit: its hash, or its batch's id until the hash is known. */
export const trackingId = (t: Tracking) => t.txHash || t.callsId || ''

/** The kit refused to record this deposit's own hash (not a hash it replaced). */
export const unrecorded = (t: Tracking) => !!t.txHash && t.unrecorded === t.txHash

/** What the quote screen tells about the send (words in errors/words.ts). */
export type Notice = Extract<
  SendProblem,
  { kind: 'wallet' | 'wrongChain' | 'insufficient' | 'insufficientGas' | 'elsewhere' | 'unlinked' | 'refused' | 'check' }
>

/** What the quote says once the kit answered a link without sign-in with 401 (session.noSignIn): one object, one `error` event. */
export const NO_SIGN_IN: Extract<Notice, { kind: 'check' }> = { kind: 'check', problem: { key: 'link.signIn', code: 'unauthenticated' } }

export type FormError = { kind: 'amount'; problem: AmountProblem } | { kind: 'api'; problem: Problem } | { kind: 'rejected'; rejection: Rejection }

export type Outcome = 'done' | 'failed' | 'expired' | 'cancelled' | 'reverted' | 'dropped' | 'unfollowed'

export type DepositState =
  | (ConnectWalletState & { form: Form })
  | { tag: 'form'; form: Form; session: Session; error?: FormError }
  | { tag: 'quoting'; form: Form; session: Session; amount: string; requote: boolean }
  | ({
      tag: 'quote'
      form: Form
      session: Session
      amount: string
      work: SendStep
      approvalHash?: string
      notice?: Notice
      preview?: Preview
      /** How many times the preview ran again at the buyer's request. */
      previewAttempt?: number
    } & Priced<DepositQuote>)
  | ({
      tag: 'tracking'
      tracking: Tracking
      /** batching: the wallet holds approval + deposit as one batch and has not told the hash yet. */
      phase: 'watching' | 'batching' | 'confirming' | 'delivering'
      /** Paid by address: transfers into the address that are not the one asked. */
      strays?: Stray[]
      replaced?: boolean
      /** The chain has not seen the transaction for a while: dropped, or replaced outside our view. */
      missing?: boolean
      /** No RPC the widget can use reads this chain: say so, offer to stop following. */
      unreadable?: boolean
      session?: Session
    } & Followed)
  | { tag: 'result'; outcome: Outcome; tracking: Tracking; session?: Session }
  | ByAddress

export type DepositEvent =
  /** The connect-wallet sub-machine's events (kernel/connectWallet.ts). */
  | { type: 'WALLET'; event: ConnectWalletEvent }
  /** Paying by address (byAddress.ts): its events, taken by its transition once its code is here. */
  | { type: 'BY_ADDRESS'; event: ByAddressEvent }
  | { type: 'EDIT'; amount?: string; source?: number }
  | { type: 'SUBMIT' }
  | QuoteEvent<DepositQuote>
  | { type: 'QUOTE_REJECTED'; rejection: Rejection }
  | { type: 'PREVIEW'; preview: Preview }
  /** Run the preview again (the buyer's "try again", or a send that finds the balance now enough). */
  | { type: 'RETRY_PREVIEW' }
  | { type: 'BATCHED'; txHash: string; approvalHash?: string }
  | { type: 'BATCH_FAILED'; outcome: 'reverted' | 'dropped' }
  | { type: 'UNREADABLE' }
  | { type: 'BACK' }
  | { type: 'CONFIRM' }
  | { type: 'WORK'; work: Exclude<SendStep, 'idle'>; approvalHash?: string }
  | { type: 'BLOCKED'; notice?: Notice }
  | { type: 'SENT'; tracking: Tracking }
  | { type: 'RECEIPT'; success: boolean }
  | { type: 'REPLACED'; reason: 'repriced' | 'replaced' | 'cancelled'; txHash: string }
  | { type: 'TRACK'; status: 'pending' | 'done' | 'failed' | 'expired'; origin?: string; delivered?: string }
  | { type: 'MISSING'; missing: boolean }
  | { type: 'ADOPT'; tracking: Tracking }
  /** The partner's kit answered `POST /deposit/sent` for this hash (report.ts). */
  | { type: 'REPORTED'; txHash: string; id: string }
  /** The partner's kit refused to record this hash (403 wallet_not_linked: report.ts). */
  | { type: 'UNRECORDED'; txHash: string }
  /** The partner's kit, asked before confirming, answered 401 to a link without sign-in (session.noSignIn). */
  | { type: 'NO_SIGN_IN' }
  | { type: 'STOP_FOLLOWING' }
  | FollowEvent
  | { type: 'RESTART' }

export type Context = {
  /** Decimals of each configured source token, by index. */
  sourceDecimals: number[]
  decimalMark: '.' | ','
  /** Paying by address, once its code is here (byAddressPart.ts): its stage's and its watch's transition. */
  byAddress?: (state: DepositState, event: ByAddressEvent, ctx: Context) => DepositState
}

export const emptyForm: Form = { amount: '', source: 0 }
