// The card payment's I/O: each stage the machine enters may start effects (keyed, so an update
// inside the same stage does not restart them); leaving the stage cancels them. The effects live
// beside this file, one concern each: limits, rate, quoting, purchase, redirect and tracking.
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { expiryEffect } from '../../kernel/quote'
import { enCardLater } from '../../i18n/en-cardLater'
import { addEnglish } from '../../i18n/i18n'
import { type CardDeps, cardContext } from './context'
import { limitsEffect } from './limits'
import type { CardEvent, CardState } from './machine'
import { purchase } from './purchase'
import { requestQuote } from './quoting'
import { rateEffect } from './rate'
import { redirect } from './redirect'
import { trackingEffects } from './tracking'

export type { CardDeps }

// The strings of the card screens after the form come with them (and with the effects that lead there).
addEnglish(enCardLater)

// What the host page hears: with the effects, not with the form (CardFlow's lazyObserver).
export { cardEvents } from './hostEvents'

export function createCardEffects(deps: CardDeps, dispatch: (event: CardEvent) => void) {
  const ctx = cardContext(deps, dispatch)

  function effectOf(state: CardState): Effect | Array<Effect | undefined> | undefined {
    switch (state.tag) {
      case 'form':
        return [limitsEffect(ctx, state), rateEffect(ctx, state), state.left ? forget(state.left) : undefined]
      case 'quoting':
        // Limits still on their way keep coming: they judge the amount submitted (the machine).
        return [limitsEffect(ctx, state), { key: `quote:${state.form.currency}:${state.amount}`, start: (alive) => void requestQuote(ctx, state, alive) }]
      case 'quote':
        return state.work === 'purchasing'
          ? { key: `purchase:${state.quotedAt}`, start: (alive) => void purchase(ctx, state, alive) }
          : expiryEffect(state.quotedAt, state.quote.expiresAt, ctx.clock, dispatch)
      case 'redirect':
        return { key: `redirect:${state.purchase.id}`, start: () => redirect(ctx, state) }
      case 'tracking':
        return trackingEffects(ctx, state)
      case 'result':
        return { key: `result:${state.purchase.id}`, start: () => ctx.store.clear() }
    }
  }

  // Started again from a purchase left unpaid: its record goes (if no other tab kept a newer one).
  const forget = (id: string): Effect => ({
    key: `forget:${id}`,
    start: () => {
      if (ctx.store.load()?.id === id) ctx.store.clear()
    },
  })

  return createEffectRunner(effectOf)
}
