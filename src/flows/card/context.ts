// What every card effect shares: the seams it was given, the partner backend's doors made once, and
// how it speaks to the machine.
import { type CardCalls, cardCalls } from '../../api/card'
import type { ApiClient } from '../../api/client'
import { type PartnerHttp, createPartnerHttp } from '../../api/partnerHttp'
import type { WidgetConfig } from '../../config/config'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import type { CardEvent, Purchase } from './machine'

export type CardDeps = {
  config: WidgetConfig
  api: ApiClient
  /** The partner backend's card calls (default: a client made from the config). */
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
  /** The partner backend's GET door for the rate (default: one made from the config). */
  rateHttp?: PartnerHttp
}

export type CardContext = Omit<CardDeps, 'partner' | 'rateHttp'> & {
  partner: CardCalls
  rateHttp: PartnerHttp
  dispatch: (event: CardEvent) => void
}

export function cardContext(deps: CardDeps, dispatch: (event: CardEvent) => void): CardContext {
  const { config } = deps
  const http = createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies })
  return { ...deps, partner: deps.partner ?? cardCalls(http), rateHttp: deps.rateHttp ?? http, dispatch }
}
