// What every deposit effect shares: the seams it was given, how it speaks to the machine, and what
// this visit remembers (kept in memory only: receipts, sent transactions and refused quotes).
import type { ApiClient } from '../../api/client'
import type { PartnerHttp } from '../../api/partnerHttp'
import type { WidgetConfig } from '../../config/config'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import type { SentTransaction } from '../../wallet/chainActions'
import type { DepositEvent, ReceiptSummary, Tracking } from './machine'
import type { ChainActions } from './walletCode'

export type { ChainActions } from './walletCode'

export type DepositDeps = {
  config: WidgetConfig
  api: ApiClient
  /** The partner's backend, its one door (services.partner): the kit's reports and wallet links. */
  partner: () => Promise<PartnerHttp>
  store: FlowStore<Tracking>
  target: Window
  clock: Clock
  loadChainActions: () => Promise<ChainActions>
  pollIntervalMs?: number
  dropCheckMs?: number
}

export type DepositContext = DepositDeps & {
  dispatch: (event: DepositEvent) => void
  /** Receipts read in this visit, by lower-case hash: the status poll starts from one without asking again. */
  receipts: Map<string, ReceiptSummary>
  /** Nonce slots of transactions sent in this visit (in memory: they name the sender). */
  sent: Map<string, SentTransaction>
  /** Fingerprints of quotes refused by the guard or the simulation: never used again, even if the service repeats one. */
  rejected: Set<string>
  /** Reports to the partner's kit under way (report.ts), by hash: each resolves true once it ended (told, or given up). */
  reports: Map<string, Promise<boolean>>
  /** Aborted when the widget goes: a report stops with it (the kept record tells the kit on the next visit). */
  gone: AbortController
  /** The partner's backend took a link without sign-in (anything but 401): not asked again in this visit (effects.ts). */
  signInAnswered: boolean
  sleep(ms: number): Promise<void>
}

export function depositContext(deps: DepositDeps, dispatch: (event: DepositEvent) => void): DepositContext {
  return {
    ...deps,
    dispatch,
    receipts: new Map(),
    sent: new Map(),
    rejected: new Set(),
    reports: new Map(),
    gone: new AbortController(),
    signInAnswered: false,
    sleep: (ms) => new Promise<void>((resolve) => deps.clock.setTimeout(resolve, ms)),
  }
}
