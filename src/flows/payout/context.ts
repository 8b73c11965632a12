// What every payout effect shares: the seams it was given (the partner's backend, the stores, the
// wallet code), and how it speaks to the machine.
import type { PartnerHttp } from '../../api/partnerHttp'
import type { WidgetConfig } from '../../config/config'
import type { IdentityDeps } from '../../identity/effects'
import type { Clock, WalletInfo } from '../../kernel/types'
import type { Eip1193Provider } from '../../wallet/eip6963'
import type { PayoutStatus } from '../../api/payout'
import type { AnyPayoutQuote, QuoteAsk, Source } from './base'
import type { DestinationEvent } from './destination'
import type { FundingEvent } from './funding'
import type { PayoutEvent, StateOf } from './state'
import type { PayoutStore, PendingStore, ReferenceStore, SpentAddresses } from './persisted'
import type { ChainActions } from './walletCode'

export type { ChainActions } from './walletCode'

/**
 * What differs between a bank payout and a card payout: the service's calls (bank.ts, card.ts),
 * each loaded only with its own flow. Everything else is the payout's own.
 */
export type PayoutCalls = {
  quote(ctx: PayoutContext, ask: QuoteAsk, signal: AbortSignal): Promise<AnyPayoutQuote>
  status(ctx: PayoutContext, id: string): Promise<PayoutStatus>
  /** POST /bank/payout or /card/payout, under one reference per request; dispatches CREATED or CREATE_FAILED. */
  create(ctx: PayoutContext, state: StateOf<'beneficiary' | 'card'>, alive: () => boolean): Promise<void>
  /** A card payout: the card page's session, then the page (a full navigation). */
  openCard?(ctx: PayoutContext, state: StateOf<'card'>, alive: () => boolean): Promise<void>
}

export type PayoutDeps = {
  calls: PayoutCalls
  config: WidgetConfig
  partner: PartnerHttp
  source: Source
  store: PayoutStore
  references: ReferenceStore
  spent: SpentAddresses
  /** The payout the identity steps interrupt, kept in this tab across the verification. */
  pending: PendingStore
  clock: Clock
  identity: IdentityDeps
  /** The wallet code (walletCode.ts), loaded once the funding step needs it. */
  loadChainActions: () => Promise<ChainActions>
  /** EIP-6963: the wallets that announce themselves, and the provider of one. */
  discover: (onChange: (wallets: WalletInfo[]) => void) => () => void
  providerOf: (walletId: string) => Eip1193Provider | undefined
  newReference?: () => string
  pollIntervalMs?: number
  /** A card payout: this link to come back to from the card page, and the way there. */
  returnUrl?: () => string
  navigate?: (url: string) => void
  /** A bank payout: the method whose routes set where the form starts, and the currencies offered. */
  routes?: { method: 'bank_payout'; currencies: string[] }
}

/** How the effects speak to the machine: its own events (the price's), and each sub-machine's under its name. */
export type PayoutContext = PayoutDeps & {
  dispatch: (event: PayoutEvent) => void
  funding: (event: FundingEvent) => void
  destination: (event: DestinationEvent) => void
}

export type { StateOf }

export function payoutContext(deps: PayoutDeps, dispatch: (event: PayoutEvent) => void): PayoutContext {
  return { ...deps, dispatch, funding: (event) => dispatch({ type: 'FUNDING', event }), destination: (event) => dispatch({ type: 'DESTINATION', event }) }
}
