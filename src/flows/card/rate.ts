// The indicative rate for what the buyer typed (GET /card/rate): shown, never reserved.
import { type CardRateRequest, getCardRate } from '../../api/cardRate'
import type { Effect } from '../../kernel/effects'
import { decimalMarkOf, parseAmount } from '../../lib/decimal'
import type { CardContext } from './context'
import type { CardState } from './machine'

/** Typing pauses this long before an indicative rate is asked: not one request per keystroke. */
export const RATE_DEBOUNCE_MS = 400

/** Once typing pauses (debounced by the effect's key: a new amount cancels the wait). */
export function rateEffect(ctx: CardContext, state: Extract<CardState, { tag: 'form' }>): Effect | undefined {
  const { config, clock } = ctx
  const { currency, amount, asset } = state.form
  if (!config.partnerBase || !asset || state.rate?.amount === amount) return undefined
  const parsed = parseAmount(amount, 2, decimalMarkOf(config.locale))
  if (!parsed.ok) return undefined
  const ask = { fiatCurrency: currency, cryptoCurrency: asset, amount: parsed.value, side: 'buy' } satisfies CardRateRequest
  return {
    key: `rate:${currency}:${asset}:${amount}`,
    start: (alive, signal) => {
      const timer = clock.setTimeout(() => void loadRate(ctx, ask, amount, alive, signal), ctx.rateDebounceMs ?? RATE_DEBOUNCE_MS)
      return () => clock.clearTimeout(timer)
    },
  }
}

async function loadRate(ctx: CardContext, ask: CardRateRequest, typed: string, alive: () => boolean, signal: AbortSignal) {
  try {
    const rate = await getCardRate(ctx.rateHttp, ask, signal)
    if (alive()) ctx.dispatch({ type: 'RATE', currency: ask.fiatCurrency, amount: typed, rate })
  } catch {
    // A display aid only: without it the buyer still gets a real quote.
  }
}
