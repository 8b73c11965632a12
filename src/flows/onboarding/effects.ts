// Fiat onboarding's I/O, keyed per stage.
import type { ApiClient } from '../../api/client'
import { fundingStatus, openAccount } from '../../api/fiat'
import type { WidgetConfig } from '../../config/config'
import { KycPending } from '../../errors/ApiError'
import { describeError } from '../../errors/describeError'
import type { Emit } from '../../config/protocol'
import { type IdentityDeps, identityEffect } from '../../identity/effects'
import { isIdentityState } from '../../identity/machine'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { type StatusPoll, followEffects } from '../../kernel/followEffects'
import type { fiatStatus } from '../../api/schemas'
import type * as z from 'zod/mini'
import type { OnboardingEvent, OnboardingState, OpenAccount, StoredAccount } from './machine'

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

export const slowPolling = (polls: number) => Math.min(120_000, Math.round(15_000 * 1.5 ** Math.max(0, polls - 1)))

export function createOnboardingEffects(deps: OnboardingDeps, dispatch: (event: OnboardingEvent) => void) {
  const { api, store, clock } = deps

  function effectOf(state: OnboardingState): Effect | Effect[] | undefined {
    if (isIdentityState(state)) {
      // "Not you?": the previous buyer's records go.
      const forget: Effect | undefined = state.tag === 'wallet' && state.forget ? { key: 'forget', start: () => store.clear() } : undefined
      return [forget, identityEffect(state, deps.identity, dispatch)].filter((e): e is Effect => !!e)
    }
    switch (state.tag) {
      case 'funded':
        // Nothing left to resume: the record does not stay on the device.
        return { key: `funded:${state.record.virtualAccountId}`, start: () => store.clear() }
      case 'opening':
        return state.problem
          ? undefined
          : { key: `open:${state.record.accountId}:${state.attempt}`, start: (alive) => open(state, alive) }
      case 'account':
        return followEffects('fiat', state.record.virtualAccountId, state, fundingPoll(state.record), dispatch)
      default:
        return undefined
    }
  }

  function open(state: Extract<OnboardingState, { tag: 'opening' }>, alive: () => boolean) {
    const { record } = state
    const go = async () => {
      try {
        // The point of no return is near: the ids are kept, so a reload opens the same account.
        await store.ready?.()
        if (!store.load()?.walletId) store.save(record)
        const account = await openAccount(api, record.accountId, record.walletId)
        const details = Object.fromEntries(
          Object.entries(account.details).filter((e): e is [string, string] => typeof e[1] === 'string'),
        )
        const full = { ...record, virtualAccountId: account.id, details, feeBps: account.applicationFeeBps, asset: account.asset }
        store.save(full)
        const { asset: _, ...event } = full
        deps.emit('account', event)
        if (alive()) dispatch({ type: 'ACCOUNT_OPENED', virtualAccountId: account.id, details, feeBps: account.applicationFeeBps, asset: account.asset })
      } catch (error) {
        if (!alive()) return
        if (error instanceof KycPending) dispatch({ type: 'ACCOUNT_PENDING' })
        else dispatch({ type: 'ACCOUNT_FAILED', problem: describeError(error) })
      }
    }
    // While the identity check is pending, look again now and then instead of hammering.
    if (!state.kycPending || state.attempt === 0) {
      void go()
      return
    }
    const timer = clock.setTimeout(() => void go(), deps.kycRecheckMs ?? deps.config.timings?.kycRecheckMs ?? 15_000)
    return () => clock.clearTimeout(timer)
  }

  /** Slow polling of the account's funding: settlement takes hours or days. */
  function fundingPoll(record: OpenAccount): StatusPoll<z.infer<typeof fiatStatus>> {
    let polls = 0
    return {
      fetch: () => {
        polls++
        return fundingStatus(api, record.accountId, record.virtualAccountId)
      },
      isTerminal: (s) => s.status === 'funded' && !!s.deliveredAmount,
      intervalMs: () => (deps.pollIntervalMs ?? ((n) => deps.config.timings?.bankPollMs ?? slowPolling(n)))(polls),
      retryBaseMs: deps.config.timings?.backoffBaseMs,
      onData: (s) => dispatch({ type: 'TRACK', status: s.status, deliveredAmount: s.deliveredAmount, asset: s.asset ?? s.cryptoCurrency }),
    }
  }

  return createEffectRunner(effectOf)
}
