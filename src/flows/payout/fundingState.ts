// The funding sub-machine's two stages that hold a wallet (funding.ts): the connect step and the
// funding step, each with the connect-wallet sub-machine beside it (fundingWallet.ts). Pure types.
import type { ChosenWallet, ConnectWalletState } from '../../kernel/connectWallet'
import type { Work } from '../../kernel/types'
import type { BuyerAccount, FundingProblem, QuotedBase } from './base'
import type { PayoutRecord } from './record'

export type FundingWork = 'connecting' | 'checking' | 'switching' | 'sending'

/** The wallet that funds the payout, connected before anything personal: the connect-wallet sub-machine (`connection`), busy while asked. */
/** `wallet`: one that connected on another account than the one that must pay, still connected (a WalletConnect session: its Disconnect). */
export type ConnectState = {
  tag: 'connect'
  connection: ConnectWalletState
  work: Work<'connecting'>
  problem?: FundingProblem
  wallet?: ChosenWallet
} & QuotedBase

export type FundingState = {
  tag: 'funding'
  buyer: BuyerAccount
  record: PayoutRecord
  /**
   * After a prompt whose answer never came (a reload): the service's status and the address's
   * balance are read again (`running`; the buyer may connect meanwhile), and only once they show
   * nothing (`clear`) may the buyer choose to send again.
   */
  verify?: 'running' | 'clear'
  /** The connect-wallet sub-machine, for a page that lost the wallet connected before (a reload, a round trip). */
  connection: ConnectWalletState
  /** The wallet connected, and its account (the buyer's verified one): the transfer's sender. */
  wallet?: ChosenWallet
  sender?: string
  work: Work<FundingWork>
  problem?: FundingProblem
}
