// The connect-wallet sub-machine (kernel/connectWallet.ts) inside both funding stages (funding.ts):
// its state kept beside the stage's, its refusal said as the stage's problem, and the wallet let go
// of (Disconnect, Connect again). Pure.
import type { FundingProblem } from './base'
import {
  type ChosenWallet,
  type ConnectProblem,
  type ConnectWalletEvent,
  type ConnectWalletState,
  connectWallet,
  disconnected,
} from '../../kernel/connectWallet'
import type { ConnectState, FundingState } from './fundingState'
import { promptedUnanswered } from './record'

/**
 * The connect-wallet sub-machine inside both funding stages: its state kept beside the stage's
 * (busy while the chosen wallet is asked), its refusal said as the stage's problem, and how it
 * ended handed back for the stage to judge. A wallet is chosen only while nothing else is under way.
 */
export function connecting<S extends ConnectState | FundingState>(
  state: S,
  event: ConnectWalletEvent,
): S | { tag: 'connected'; wallet: ChosenWallet; account: string } {
  if (event.type === 'CHOOSE' && state.work !== 'idle') return state
  const next = connectWallet(state.connection, event)
  if (next === state.connection) return state
  if (next.tag === 'connected') return next
  const busy = next.tag === 'connecting'
  // Busy only with the wallet's answer: a send under way is never marked idle by a wallet event.
  if (!busy && state.work !== 'idle' && state.work !== 'connecting') return { ...state, connection: next }
  const problem = event.type === 'REFUSED' ? refusal(event.problem) : busy ? undefined : state.problem
  return { ...state, connection: next, work: busy ? 'connecting' : 'idle', problem }
}

/** Back to the choice, with what was wrong with the wallet that answered. */
export function refused<S extends ConnectState | FundingState>(state: S, problem: FundingProblem): S {
  return { ...state, connection: { tag: 'wallets', wallets: walletsOf(state.connection) }, work: 'idle', problem }
}

export const walletsOf = (connection: ConnectWalletState) => (connection.tag === 'discovering' ? [] : connection.wallets)

const refusal = (problem: ConnectProblem): FundingProblem => (problem === 'noAccount' ? { kind: 'noAccount' } : { kind: 'wallet', problem })

/** Another wallet than the one that must fund the payout: said with the one it must be. */
export const otherWallet = (wallet: string): FundingProblem => ({
  kind: 'check',
  problem: { key: 'payout.otherWallet', code: 'payout_wallet', detail: wallet },
})

/**
 * Disconnect, or Connect again once the wallet ended the connection: back to choosing a wallet, the
 * payout (or the price) kept, this one let go of (a WalletConnect session ends, on the relay too). Never while the
 * wallet is asked, nor once it was asked and may still hold the transfer (unless it ended the
 * connection itself: the ask's mark stays, and is checked before any new send).
 */
export function letGo<S extends ConnectState | FundingState>(state: S): S {
  const ended = state.problem?.kind === 'wallet' && state.problem.problem === 'ended'
  const asked = state.tag === 'funding' && promptedUnanswered(state.record)
  if (state.work !== 'idle' || !state.wallet || (asked && !ended)) return state
  return { ...state, connection: disconnected(state.wallet), wallet: undefined, sender: undefined, problem: undefined }
}
