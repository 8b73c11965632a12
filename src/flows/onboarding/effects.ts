// The bank flow's I/O: the identity steps' (identity/effects.ts), then each stage's, keyed so an
// update inside the same stage does not restart it. The effects live beside this file: opening
// and tracking.
import { identityEffect } from '../../identity/effects'
import { isIdentityState } from '../../identity/machine'
import { identityFlowRunner, identityWalletEffects } from '../../identity/walletEffects'
import type { Effect } from '../../kernel/effects'
import type { OnboardingDeps } from './context'
import type { OnboardingEvent, OnboardingState } from './machine'
import { open } from './opening'
import { trackingEffects } from './tracking'

export type { OnboardingDeps }

export function createOnboardingEffects(deps: OnboardingDeps, dispatch: (event: OnboardingEvent) => void) {
  const ctx = { ...deps, dispatch }
  const { store } = deps
  const wallet = deps.identity.wallet && identityWalletEffects(deps.identity.wallet, dispatch)

  function effectOf(state: OnboardingState): Effect | Effect[] | undefined {
    if (isIdentityState(state)) {
      // "Not you?": the previous buyer's records go.
      const forget: Effect | undefined = state.tag === 'wallet' && state.forget ? { key: 'forget', start: () => store.clear() } : undefined
      return [forget, identityEffect(state, deps.identity, dispatch), ...(wallet?.effectOf(state) ?? [])].filter((e): e is Effect => !!e)
    }
    switch (state.tag) {
      case 'opening':
        return state.problem ? undefined : { key: `open:${state.record.accountId}:${state.attempt}`, start: (alive) => open(ctx, state, alive) }
      case 'tracking':
        return trackingEffects(ctx, state)
      case 'result':
        // Nothing left to resume: the record does not stay on the device.
        return { key: `funded:${state.record.virtualAccountId}`, start: () => store.clear() }
      default:
        return undefined
    }
  }

  return identityFlowRunner(effectOf, wallet)
}
