// What every bank deposit effect shares: the seams it was given and how it speaks to the machine.
import type { PartnerHttp } from '../../api/partnerHttp'
import type { IdentityDeps } from '../../identity/effects'
import type { Clock } from '../../kernel/types'
import type { RouteDefaults } from '../../lib/routeDefaults'
import type { BankDepositEvent } from './machine'
import type { Attempt, KeptDeposit, PendingStore, Store } from './persisted'

export type BankDepositDeps = {
  http: PartnerHttp
  store: Store<KeptDeposit>
  attempts: Store<Attempt>
  /** A higher tier's detour, kept in this tab across the identity provider's round trip. */
  pending: PendingStore
  /** The identity steps' own: the buyer's account (every bank flow's) and the spent codes. */
  identity: IdentityDeps
  clock: Clock
  /** The partner's own reference (config.reference): the idempotency key when given. */
  partnerReference?: string
  /** A fresh idempotency key (default: 16 random bytes, creating.ts). */
  newReference?: () => string
  pollIntervalMs?: number
  /** Where the form starts (reference.ts startRoute): the currencies taken, the registry's defaults, the page's locale. */
  currencies: readonly string[]
  defaults?: RouteDefaults
  locale?: string
}

export type BankDepositContext = BankDepositDeps & { dispatch: (event: BankDepositEvent) => void }
