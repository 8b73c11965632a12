// The one-off deposit's I/O: the identity steps' (identity/effects.ts), then each stage's, keyed so
// an update inside the same stage does not restart it. The effects live beside this file:
// reference (the ways to pay and their limits), creating and tracking.
import { identityEffect } from '../../identity/effects'
import { isIdentityState } from '../../identity/machine'
import { identityFlowRunner, identityWalletEffects } from '../../identity/walletEffects'
import type { Effect } from '../../kernel/effects'
import type { BankDepositDeps } from './context'
import { create } from './creating'
import type { BankDepositEvent, BankDepositState } from './machine'
import { loadReference } from './reference'
import { keep, trackingEffects } from './tracking'

export type { BankDepositDeps }
export { BANK_POLL_MS } from './tracking'

export function createBankDepositEffects(deps: BankDepositDeps, dispatch: (event: BankDepositEvent) => void) {
  const ctx = { ...deps, dispatch }
  const wallet = deps.identity.wallet && identityWalletEffects(deps.identity.wallet, dispatch)

  function effectOf(state: BankDepositState): Effect | Array<Effect | undefined> | undefined {
    if (isIdentityState(state)) {
      const { pending } = state
      // A higher tier's detour: kept in this tab before the identity provider is opened (a full navigation), taken on the way back.
      return [
        identityEffect(state, deps.identity, dispatch),
        ...(wallet?.effectOf(state) ?? []),
        pending ? { key: `pending:${JSON.stringify(pending)}`, start: () => deps.pending.put(pending) } : undefined,
      ]
    }
    switch (state.tag) {
      case 'form':
        return [
          // Past the identity steps: what they kept in this tab is no longer needed.
          { key: 'pending-clear', start: () => deps.pending.clear() },
          state.work === 'creating'
            ? { key: `create:${state.form.currency}:${state.checked}`, start: (alive, signal) => void create(ctx, state, alive, signal) }
            : state.reference || state.loadProblem
              ? undefined
              : { key: `reference:${state.loads}`, start: (alive, signal) => void loadReference(ctx, state, alive, signal) },
        ]
      case 'tracking':
        return trackingEffects(ctx, state)
      case 'result':
        return keep(ctx, state)
    }
  }

  return identityFlowRunner(effectOf, wallet)
}
