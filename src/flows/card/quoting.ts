// The price for the submitted amount (POST /card/quote): shown before the buyer goes on.
import { quoteCard } from '../../api/card'
import { describeError } from '../../errors/describeError'
import type { CardContext } from './context'
import type { CardState } from './machine'

export async function requestQuote(ctx: CardContext, state: Extract<CardState, { tag: 'quoting' }>, alive: () => boolean) {
  try {
    const quote = await quoteCard(ctx.api, { fiatCurrency: state.form.currency, fiatAmount: state.amount })
    if (alive()) ctx.dispatch({ type: 'QUOTED', quote, at: ctx.clock.now() })
  } catch (error) {
    if (alive()) ctx.dispatch({ type: 'QUOTE_FAILED', problem: describeError(error) })
  }
}
