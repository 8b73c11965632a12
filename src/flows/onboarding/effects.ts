// Fiat onboarding's I/O, keyed per stage.
import type { ApiClient } from '../../api/client'
import { fundingStatus, onboard, openAccount } from '../../api/fiat'
import type { WidgetConfig } from '../../config/config'
import { AuthCodeRejected, FieldRejected, KycPending } from '../../errors/ApiError'
import { describeError } from '../../errors/words'
import type { Emit } from '../../embed/protocol'
import { normalisePhone } from '../../lib/contact'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { type StatusPoll, followEffects } from '../../kernel/follow'
import type { fiatStatus } from '../../api/schemas'
import type * as z from 'zod/mini'
import type { Field, OnboardingEvent, OnboardingState, OpenAccount, StoredAccount } from './machine'

export type OnboardingDeps = {
  config: WidgetConfig
  api: ApiClient
  store: FlowStore<StoredAccount>
  usedCodes: { add(code: string): void }
  clock: Clock
  emit: Emit
  /** Slow polling: settlement takes hours or days. */
  pollIntervalMs?: (polls: number) => number
  kycRecheckMs?: number
}

const FIELD_OF: Record<string, Field> = {
  'applicantInfo.nationality': 'nationality',
  'applicantInfo.phone': 'phone',
  'individual.name': 'name',
  'individual.email': 'email',
  'individual.country': 'country',
  'individual.category': 'category',
  wallet: 'wallet',
}

export const slowPolling = (polls: number) => Math.min(120_000, Math.round(15_000 * 1.5 ** Math.max(0, polls - 1)))

export function createOnboardingEffects(deps: OnboardingDeps, dispatch: (event: OnboardingEvent) => void) {
  const { api, store, clock } = deps

  function effectOf(state: OnboardingState): Effect | Effect[] | undefined {
    switch (state.tag) {
      case 'details':
        return state.work === 'submitting' ? { key: `onboard:${state.authCode}`, start: (alive) => void submit(state, alive) } : undefined
      case 'wallet':
        // "Not you?": the previous buyer's record goes.
        return state.forget ? { key: 'forget', start: () => store.clear() } : undefined
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

  async function submit(state: Extract<OnboardingState, { tag: 'details' }>, alive: () => boolean) {
    const { form, authCode } = state
    try {
      const result = await onboard(api, {
        authCode,
        applicantInfo: { nationality: form.nationality, phone: normalisePhone(form.phone) ?? form.phone.trim() },
        individual: { name: form.name.trim(), email: form.email.trim(), country: form.country, category: form.category || undefined },
        wallet: form.wallet.trim(),
      })
      deps.usedCodes.add(authCode)
      store.save({ accountId: result.accountId, walletId: result.walletId })
      if (alive()) dispatch({ type: 'ONBOARDED', ...result })
    } catch (error) {
      // A refused code is never sent again: the next attempt needs a new one from the identity provider.
      const codeSpent = error instanceof AuthCodeRejected
      if (codeSpent) deps.usedCodes.add(authCode)
      const field = error instanceof FieldRejected && error.field ? FIELD_OF[error.field] : undefined
      if (alive()) dispatch({ type: 'ONBOARD_FAILED', problem: describeError(error), field, codeSpent })
    }
  }

  function open(state: Extract<OnboardingState, { tag: 'opening' }>, alive: () => boolean) {
    const { record } = state
    const go = async () => {
      try {
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
      onData: (s) => dispatch({ type: 'TRACK', status: s.status, deliveredAmount: s.deliveredAmount, asset: s.asset ?? s.cryptoCurrency }),
    }
  }

  return createEffectRunner(effectOf)
}
