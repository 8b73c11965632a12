// The funding sub-machine: the wallet that funds the payout, connected after the price and before
// anything personal (`connect`); once the payout exists, the checks and the one transfer (`funding`);
// then its status followed to the end (`tracking`, `result`, kernel/follow.ts). The transfer is asked
// for once per payout, and a reload never asks again once its hash exists, nor on its own once the
// wallet was asked (promptedAt): it checks first, and only the buyer's second confirmation sends
// again. The composing machine (machine.ts) hands it its own events and reads how it ends; the wallet's
// own sub-machine inside its stages is fundingWallet.ts (a Disconnect, Connect again). Pure.
import type { PayoutStatus } from '../../api/payout'
import { type FollowEvent, type Followed, follow, isFollowEvent, tracked } from '../../kernel/follow'
import { type ConnectWalletEvent, disconnected } from '../../kernel/connectWallet'
import { isExpired } from '../../kernel/quote'
import { type BuyerAccount, type Funder, type FundingProblem, type QuotedBase, carried, quoted, sameAddress } from './base'
import { type PayoutRecord, isFinalPayoutStatus, promptedUnanswered } from './record'
import { byAddressOwner } from './owner'
import type { ConnectState, FundingState, FundingWork } from './fundingState'
import { connecting, letGo, otherWallet, refused, walletsOf } from './fundingWallet'

export type { ConnectState, FundingState, FundingWork }

export type TrackingState = { tag: 'tracking'; buyer: BuyerAccount; record: PayoutRecord; status?: PayoutStatus; alreadyFunded?: boolean } & Followed
export type ResultState = { tag: 'result'; buyer: BuyerAccount; record: PayoutRecord; status: PayoutStatus }
export type FundingStates = ConnectState | FundingState | TrackingState | ResultState

export type FundingEvent =
  /** The connect-wallet sub-machine's events (kernel/connectWallet.ts), for the wallet that funds it. */
  | { type: 'WALLET'; event: ConnectWalletEvent }
  | { type: 'BACK' }
  /** At the connect step: no wallet here, the account's own known already; paid from another wallet or an exchange (byAddress.ts). */
  | { type: 'BY_ADDRESS' }
  /** At the funding step with no wallet connected: show the transfer as a request another wallet or an exchange can pay (the payout is marked offered). */
  | { type: 'OFFER'; now: number }
  /**
   * Ask the wallet for the transfer. `confirmed`: the buyer's word, needed once the wallet was
   * already asked (a second confirmation) or the payout was offered by address (nothing sent another way).
   */
  | { type: 'CONFIRM'; now: number; confirmed?: boolean }
  | { type: 'WORK'; work: FundingWork }
  /** The wallet is being asked now: `record` carries the mark, already kept. */
  | { type: 'PROMPTED'; record: PayoutRecord }
  /** `record`: the payout as kept after the attempt (the mark dropped when the wallet declined this first ask). `asked`: the wallet was asked. */
  | { type: 'BLOCKED'; problem: FundingProblem; record?: PayoutRecord; asked?: boolean }
  /** Another tab of this browser changed this payout since this one read it (an offer by address, a prompt): taken in; the buyer decides again. */
  | { type: 'STORED'; record: PayoutRecord }
  /** Read the status and the address's balance again (after a prompt whose answer never came). */
  | { type: 'RECHECK' }
  /** Nothing arrived at the address and the service still waits: the buyer may choose to send. */
  | { type: 'VERIFIED' }
  /** The re-check could not be made (the service, the chain): nothing may be sent until it is. */
  | { type: 'VERIFY_FAILED'; problem: FundingProblem }
  | { type: 'SENT'; txHash: string; sender: string }
  /** The service already saw money at this payout's address: follow it, never send again. */
  | { type: 'ALREADY_FUNDED' }
  | { type: 'TRACK'; status: PayoutStatus }
  | FollowEvent
  /** Start over (an unfunded payout is left to expire), or a new payout from the result. `confirmed`: the buyer's word that nothing was sent another way (a payout offered by address). */
  | { type: 'RESTART'; confirmed?: boolean }
  /** "Not you?": the stored buyer is someone else; forget every bank record and verify again. */
  | { type: 'NOT_YOU' }

/**
 * How it ends: the wallet connected (`priced`: the price with its funder; the composer goes on to
 * who the buyer is, or the destination), back to the price, a new form (`abandoned`: the unfunded payout left; `funder`: the wallet stays
 * connected), or "Not you?".
 */
export type FundingExit =
  | { tag: 'connected'; priced: QuotedBase }
  | { tag: 'back'; priced: QuotedBase }
  | { tag: 'restart'; buyer: BuyerAccount; abandoned?: string; funder?: Funder }
  | { tag: 'notYou' }

/** The payout exists: funded next, by the wallet connected before (found again without asking after a reload). */
export function fundingOf(buyer: BuyerAccount, record: PayoutRecord, funder?: Funder): FundingState {
  return {
    tag: 'funding',
    buyer,
    record,
    work: 'idle',
    connection: disconnected(),
    ...(funder?.wallet ? { wallet: funder.wallet, sender: funder.sender } : {}),
  }
}

/** The price connected to nothing yet: the wallet that funds it is chosen next. */
export const connectOf = (priced: QuotedBase): ConnectState => ({
  ...carried(priced),
  tag: 'connect',
  ...quoted(priced),
  connection: disconnected(),
  work: 'idle',
})

/** `linkWallet`: the wallet a signed link names, the only one that may fund (else the known buyer's, else the one connected). */
export function fundingTransition(state: FundingStates, event: FundingEvent, linkWallet?: string): FundingStates | FundingExit {
  switch (state.tag) {
    case 'connect':
      return connect(state, event, byAddressOwner(state.buyer?.wallet, linkWallet))
    case 'funding':
      return funding(state, event)
    case 'tracking':
      if (event.type === 'TRACK')
        return isFinalPayoutStatus(event.status.status)
          ? { tag: 'result', buyer: state.buyer, record: state.record, status: event.status }
          : { ...tracked(state), status: event.status }
      // RESTART does nothing here: only once the status says the money left the buyer's hands for good or came back.
      return isFollowEvent(event) ? follow(state, event) : state
    case 'result':
      // A new payout: the ended one's record (kept to show this result after a reload) goes.
      return event.type === 'RESTART' ? { tag: 'restart', buyer: state.buyer, abandoned: state.record.id } : state
  }
}

function connect(state: ConnectState, event: FundingEvent, owner: string | undefined): ConnectState | FundingExit {
  if (event.type === 'BACK') return state.work === 'idle' ? { tag: 'back', priced: state } : state
  // No wallet connected: the funding step shows where to send and watches (its sender is the account's own, named).
  if (event.type === 'BY_ADDRESS')
    return state.work === 'idle' && owner
      ? { tag: 'connected', priced: { ...carried(state), ...quoted(state), funder: { sender: owner, byAddress: true } } }
      : state
  if (event.type !== 'WALLET') return state
  if (event.event.type === 'DISCONNECT') return letGo(state)
  const next = connecting(state, event.event)
  if (next.tag !== 'connected') return next
  // The account's own wallet funds the payout (partner-api.md: accountId): the one a signed link
  // names, the known buyer's, or (a new buyer) the one connected, which is then verified.
  if (owner && !sameAddress(owner, next.account)) return { ...refused(state, otherWallet(owner)), wallet: next.wallet }
  return { tag: 'connected', priced: { ...carried(state), ...quoted(state), funder: { sender: next.account, wallet: next.wallet } } }
}

function funding(state: FundingState, event: FundingEvent): FundingStates | FundingExit {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'WALLET': {
      // Disconnect, or Connect again once the wallet ended the connection (fundingWallet.ts).
      if (event.event.type === 'DISCONNECT') return letGo(state)
      const next = connecting(state, event.event)
      if (next.tag !== 'connected') return next !== state && event.event.type === 'CHOOSE' ? { ...next, wallet: undefined, sender: undefined } : next
      // Only the wallet this payout's buyer verified sends its transfer.
      if (!sameAddress(state.record.wallet, next.account)) return { ...refused(state, otherWallet(state.record.wallet)), wallet: undefined }
      return {
        ...state,
        connection: { tag: 'wallets', wallets: walletsOf(state.connection) },
        wallet: next.wallet,
        sender: next.account,
        work: 'idle',
        problem: undefined,
      }
    }
    case 'CONFIRM':
      if (!idle || !state.wallet || !state.sender) return state
      // Asked before and never answered: only after the re-check found nothing, and only on the buyer's second confirmation.
      if (promptedUnanswered(state.record) && !(state.verify === 'clear' && event.confirmed)) return state
      // Offered by address: an exchange's transfer not yet mined would be paid twice; only on the buyer's word that none was made.
      if (state.record.offeredAt !== undefined && !event.confirmed) return state
      if (isExpired(state.record.expiresAt, event.now)) return { ...state, problem: { kind: 'expired' } }
      return { ...state, work: 'checking', problem: undefined }
    case 'OFFER': {
      const { record } = state
      if (!idle || state.sender || record.promptedAt !== undefined || record.offeredAt !== undefined) return state
      return { ...state, record: { ...record, offeredAt: event.now } }
    }
    case 'STORED': {
      if (event.record.id !== state.record.id) return state
      // Another prompt than the one this tab checked: checked again before any send.
      const verify = event.record.promptedAt !== state.record.promptedAt ? undefined : state.verify
      return { ...state, record: event.record, work: 'idle', verify }
    }
    case 'WORK':
      return idle ? state : { ...state, work: event.work }
    case 'PROMPTED':
      return idle ? state : { ...state, record: event.record, work: 'sending' }
    case 'BLOCKED': {
      const record = event.record ?? state.record
      // A prompt that ended without an answer we can trust: check again before any new send.
      const verify = event.asked && promptedUnanswered(record) ? undefined : state.verify
      return { ...state, record, verify, work: 'idle', problem: event.problem }
    }
    default:
      return checked(state, event)
  }
}

/** The re-check after an unanswered prompt, what ends the funding step, and leaving it. */
function checked(state: FundingState, event: FundingEvent): FundingStates | FundingExit {
  const idle = state.work === 'idle'
  switch (event.type) {
    case 'RECHECK':
      // Not while a send is under way (its own checks decide); connecting a wallet meanwhile is fine.
      if (!(idle || state.work === 'connecting') || !promptedUnanswered(state.record) || state.verify === 'running') return state
      return { ...state, verify: 'running', problem: undefined }
    case 'VERIFIED':
      return state.verify === 'running' ? { ...state, verify: 'clear' } : state
    case 'VERIFY_FAILED':
      return state.verify === 'running' ? { ...state, verify: undefined, problem: event.problem } : state
    case 'SENT':
      // Past the point of no return: followed from here on, and never asked for again.
      return { tag: 'tracking', buyer: state.buyer, record: { ...state.record, txHash: event.txHash, sender: event.sender }, attempt: 0 }
    case 'ALREADY_FUNDED':
      return { tag: 'tracking', buyer: state.buyer, record: state.record, attempt: 0, alreadyFunded: true }
    case 'RESTART':
      // The unfunded payout is left to expire and forgotten here with its reference: a new request
      // is a new payout (a new address, a new reference). Not while a transfer may be on its way.
      if (!idle || (promptedUnanswered(state.record) && state.verify !== 'clear')) return state
      // Offered by address: a transfer from elsewhere may be on its way, and would no longer be followed here.
      if (state.record.offeredAt !== undefined && !event.confirmed) return state
      // The wallet connected stays connected for the new payout.
      return {
        tag: 'restart',
        buyer: state.buyer,
        abandoned: state.record.id,
        ...(state.wallet && state.sender ? { funder: { wallet: state.wallet, sender: state.sender } } : {}),
      }
    case 'NOT_YOU':
      return idle && state.record.promptedAt === undefined ? { tag: 'notYou' } : state
    default:
      return state
  }
}
