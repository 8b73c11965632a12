// Following the open account's funding (POST /fiat/status): slow polling, since settlement takes
// hours or days.
import { fundingStatus } from '../../api/onboarding'
import type { fiatStatus } from '../../api/schemas'
import type { Effect } from '../../kernel/effects'
import { type StatusPoll, followEffects } from '../../kernel/followEffects'
import type * as z from 'zod/mini'
import type { OnboardingContext } from './context'
import type { OnboardingState, OpenAccount } from './machine'

export const slowPolling = (polls: number) => Math.min(120_000, Math.round(15_000 * 1.5 ** Math.max(0, polls - 1)))

export function trackingEffects(ctx: OnboardingContext, state: Extract<OnboardingState, { tag: 'tracking' }>): Effect[] {
  return followEffects('fiat', state.record.virtualAccountId, state, fundingPoll(ctx, state.record), ctx.dispatch)
}

function fundingPoll(ctx: OnboardingContext, record: OpenAccount): StatusPoll<z.infer<typeof fiatStatus>> {
  const { api, config } = ctx
  let polls = 0
  return {
    fetch: () => {
      polls++
      return fundingStatus(api, record.accountId, record.virtualAccountId)
    },
    isTerminal: (s) => s.status === 'funded' && !!s.deliveredAmount,
    intervalMs: () => (ctx.pollIntervalMs ?? ((n) => config.timings?.bankPollMs ?? slowPolling(n)))(polls),
    retryBaseMs: config.timings?.backoffBaseMs,
    onData: (s) => ctx.dispatch({ type: 'TRACK', status: s.status, deliveredAmount: s.deliveredAmount, asset: s.asset ?? s.cryptoCurrency }),
  }
}
