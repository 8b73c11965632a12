// What every card effect shares: the seams it was given (the partner's door among them), and
// how it speaks to the machine.
import { type CardCalls, cardCalls } from '../../api/card'
import type { ApiClient } from '../../api/client'
import type { PartnerHttp } from '../../api/partnerHttp'
import type { WidgetConfig } from '../../config/config'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import type { CardEvent, Purchase } from './machine'

export type CardDeps = {
  config: WidgetConfig
  api: ApiClient
  /** The partner's backend, its one door (services.partner). */
  http: PartnerHttp
  /** The partner backend's card calls (default: the card's calls through `http`). */
  partner?: CardCalls
  store: FlowStore<Purchase>
  clock: Clock
  /** Where the card page sends the buyer back: this page, marked as a return. */
  returnUrl: () => string
  /** Top-level navigation to the validated card page (a new tab when framed). */
  navigate: (url: string) => void
  pollIntervalMs?: number
  /** How long typing must pause before the indicative rate is asked. */
  rateDebounceMs?: number
}

export type CardContext = Omit<CardDeps, 'partner'> & {
  partner: CardCalls
  rateHttp: PartnerHttp
  dispatch: (event: CardEvent) => void
}

export function cardContext(deps: CardDeps, dispatch: (event: CardEvent) => void): CardContext {
  return { ...deps, partner: deps.partner ?? cardCalls(deps.http), rateHttp: deps.http, dispatch }
}
