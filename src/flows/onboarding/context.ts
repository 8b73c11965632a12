// What every onboarding effect shares: the seams it was given and how it speaks to the machine.
import type { ApiClient } from '../../api/client'
import type { WidgetConfig } from '../../config/config'
import type { Emit } from '../../config/protocol'
import type { IdentityDeps } from '../../identity/effects'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import type { OnboardingEvent, StoredAccount } from './machine'

export type OnboardingDeps = {
  config: WidgetConfig
  api: ApiClient
  store: FlowStore<StoredAccount>
  /** The identity steps' own: the buyer's account (every bank flow's) and the spent codes. */
  identity: IdentityDeps
  clock: Clock
  emit: Emit
  /** Slow polling: settlement takes hours or days. */
  pollIntervalMs?: (polls: number) => number
  kycRecheckMs?: number
}

export type OnboardingContext = OnboardingDeps & { dispatch: (event: OnboardingEvent) => void }
