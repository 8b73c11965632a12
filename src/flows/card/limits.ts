// The card window (min and max) for the form's currency and asset: a courtesy check before quoting.
import type { Effect } from '../../kernel/effects'
import type { CardContext } from './context'
import type { CardState } from './machine'

/** Until the limits are here (the same key in form and quoting: limits on their way keep coming). */
export function limitsEffect(ctx: CardContext, state: Extract<CardState, { tag: 'form' | 'quoting' }>): Effect | undefined {
  const { currency, asset } = state.form
  if (state.limits || !ctx.config.partnerBase || !asset) return undefined
  return { key: `limits:${currency}:${asset}`, start: (alive) => void loadLimits(ctx, currency, asset, alive) }
}

async function loadLimits(ctx: CardContext, currency: string, asset: string, alive: () => boolean) {
  try {
    const limits = await ctx.partner.limits(currency, asset)
    if (alive()) ctx.dispatch({ type: 'LIMITS', limits })
  } catch {
    // Limits are a courtesy check before quoting; the service still enforces its own.
  }
}
