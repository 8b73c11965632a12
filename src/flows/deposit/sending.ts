// One send under way (send.ts), shared by its checks (sendChecks.ts) and its prompts (sendCalls.ts).
import type { Hex } from 'viem'
import type { DepositQuoteRequest } from '../../api/schemas'
import type { ChainConfig } from '../../config/config'
import type { Eip1193Provider } from '../../wallet/eip6963'
import type { ChainActions, DepositContext } from './context'
import type { DepositEvent, DepositState } from './machine'

export type QuoteState = Extract<DepositState, { tag: 'quote' }>

/** One send under way: what it sends, where, as whom, and how it tells the machine (while alive). */
export type Sending = {
  ctx: DepositContext
  state: QuoteState
  alive: () => boolean
  /** Aborted when the widget goes: the chain's reads and the approval's receipt wait stop. */
  signal: AbortSignal
  step: (event: DepositEvent) => void
  w: ChainActions
  provider: Eip1193Provider
  chain: ChainConfig
  account: Hex
  request: DepositQuoteRequest
}
