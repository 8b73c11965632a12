// Back from the card page: the purchase's status through the partner backend, until it ends.
import type { Effect } from '../../kernel/effects'
import { followEffects } from '../../kernel/followEffects'
import { isCardFinal } from '../../lib/status/card'
import type { CardContext } from './context'
import type { CardState } from './machine'

export function trackingEffects(ctx: CardContext, state: Extract<CardState, { tag: 'tracking' }>): Effect[] {
  const { config, dispatch } = ctx
  const { id } = state.purchase
  return followEffects(
    'card',
    id,
    state,
    {
      fetch: () => ctx.partner.status(id),
      isTerminal: (s) => isCardFinal(s.status),
      intervalMs: ctx.pollIntervalMs ?? config.timings?.pollMs ?? 3_000,
      retryBaseMs: config.timings?.backoffBaseMs,
      onData: (s) => dispatch({ type: 'TRACK', status: s }),
    },
    dispatch,
  )
}
