// The card payment's I/O, keyed per stage like the deposit's effects.
import { cardCalls, quoteCard, type CardCalls } from '../../api/card'
import { type PartnerHttp, createPartnerHttp } from '../../api/partnerHttp'
import { getCardRate } from '../../api/cardRate'
import { decimalMarkOf, parseAmount } from '../../lib/decimal'
import type { ApiClient } from '../../api/client'
import type { WidgetConfig } from '../../config/config'
import { describeError } from '../../errors/describeError'
import { validateRedirect } from '../../lib/redirect'
import { type Effect, createEffectRunner } from '../../kernel/effects'
import { followEffects } from '../../kernel/followEffects'
import { expiryEffect } from '../../kernel/quote'
import type { Clock } from '../../kernel/types'
import type { FlowStore } from '../../storage/flowStore'
import { type CardEvent, type CardState, type Purchase, isTerminalCardStatus } from './machine'
import { enCardLater } from '../../i18n/en-cardLater'
import { addEnglish } from '../../i18n/i18n'

// The strings of the card screens after the form come with them (and with the effects that lead there).
addEnglish(enCardLater)

export type CardDeps = {
  config: WidgetConfig
  api: ApiClient
  /** The partner backend's card calls (default: a client made from the config). */
  partner?: CardCalls
  store: FlowStore<Purchase>
  clock: Clock
  /** Where the card page sends the buyer back: this page, marked as a return. */
  returnUrl: () => string
  /** Top-level navigation to the validated card page (a new tab when framed). */
  navigate: (url: string) => void
  pollIntervalMs?: number
  /** How long typing must pause before the indicative rate is asked. */
  rateDebounceMs?: number
  /** The partner backend's GET door for the rate (default: one made from the config). */
  rateHttp?: PartnerHttp
}

/** Typing pauses this long before an indicative rate is asked: not one request per keystroke. */
export const RATE_DEBOUNCE_MS = 400

// What the host page hears: with the effects, not with the form (CardFlow's lazyObserver).
export { cardEvents } from './hostEvents'

export function createCardEffects(deps: CardDeps, dispatch: (event: CardEvent) => void) {
  const { config, api, store, clock } = deps
  const http = createPartnerHttp({ base: config.partnerBase ?? '', token: config.partnerToken, cookies: config.partnerCookies })
  const partner = deps.partner ?? cardCalls(http)
  const rateHttp = deps.rateHttp ?? http

  function effectOf(state: CardState): Effect | Array<Effect | undefined> | undefined {
    switch (state.tag) {
      case 'form':
        return [limitsEffect(state), rateEffect(state)]
      case 'quoting':
        // Limits still on their way keep coming: they judge the amount submitted (the machine).
        return [limitsEffect(state), { key: `quote:${state.form.currency}:${state.amount}`, start: (alive) => void requestQuote(state, alive) }]
      case 'quote':
        return state.work === 'purchasing'
          ? { key: `purchase:${state.quotedAt}`, start: (alive) => void purchase(state, alive) }
          : expiryEffect(state.quotedAt, state.quote.expiresAt, clock, dispatch)
      case 'redirect':
        return { key: `redirect:${state.purchase.id}`, start: () => redirect(state) }
      case 'tracking':
        return followEffects('card', state.purchase.id, state, {
          fetch: () => partner.status(state.purchase.id),
          isTerminal: (s) => isTerminalCardStatus(s.status),
          intervalMs: deps.pollIntervalMs ?? config.timings?.pollMs ?? 3_000,
          retryBaseMs: config.timings?.backoffBaseMs,
          onData: (s) => dispatch({ type: 'TRACK', status: s }),
        }, dispatch)
      case 'result':
        return { key: `result:${state.purchase.id}`, start: () => store.clear() }
    }
  }



  /** The card window for the currency and asset, until it is here (the same key in form and quoting). */
  function limitsEffect(state: Extract<CardState, { tag: 'form' | 'quoting' }>): Effect | undefined {
    const { currency, asset } = state.form
    if (state.limits || !config.partnerBase || !asset) return undefined
    return { key: `limits:${currency}:${asset}`, start: (alive) => void loadLimits(currency, asset, alive) }
  }

  /** The indicative rate for what the buyer typed, once typing pauses (debounced by the effect's key). */
  function rateEffect(state: Extract<CardState, { tag: 'form' }>): Effect | undefined {
    const { currency, amount, asset } = state.form
    if (!config.partnerBase || !asset || state.rate?.amount === amount) return undefined
    const parsed = parseAmount(amount, 2, decimalMarkOf(config.locale))
    if (!parsed.ok) return undefined
    return {
      key: `rate:${currency}:${asset}:${amount}`,
      start: (alive, signal) => {
        const timer = clock.setTimeout(() => void loadRate(currency, asset, amount, parsed.value, alive, signal), deps.rateDebounceMs ?? RATE_DEBOUNCE_MS)
        return () => clock.clearTimeout(timer)
      },
    }
  }

  async function loadRate(currency: string, asset: string, typed: string, amount: string, alive: () => boolean, signal: AbortSignal) {
    try {
      const rate = await getCardRate(rateHttp, { fiatCurrency: currency, cryptoCurrency: asset, amount, side: 'buy' }, signal)
      if (alive()) dispatch({ type: 'RATE', currency, amount: typed, rate })
    } catch {
      // A display aid only: without it the buyer still gets a real quote.
    }
  }

  async function loadLimits(currency: string, asset: string, alive: () => boolean) {
    try {
      const limits = await partner.limits(currency, asset)
      if (alive()) dispatch({ type: 'LIMITS', limits })
    } catch {
      // Limits are a courtesy check before quoting; the service still enforces its own.
    }
  }

  async function requestQuote(state: Extract<CardState, { tag: 'quoting' }>, alive: () => boolean) {
    try {
      const quote = await quoteCard(api, { fiatCurrency: state.form.currency, fiatAmount: state.amount })
      if (alive()) dispatch({ type: 'QUOTED', quote, at: clock.now() })
    } catch (error) {
      if (alive()) dispatch({ type: 'QUOTE_FAILED', problem: describeError(error) })
    }
  }

  async function purchase(state: Extract<CardState, { tag: 'quote' }>, alive: () => boolean) {
    const walletAddress = state.form.address.trim()
    try {
      const { token } = await partner.kycToken(walletAddress)
      if (!alive()) return
      const created = await partner.purchase({
        kycToken: token,
        fiatCurrency: state.form.currency,
        fiatAmount: state.amount,
        walletAddress,
        returnUrl: deps.returnUrl(),
      })
      const record: Purchase = {
        id: created.id,
        environment: created.environment,
        currency: state.form.currency,
        total: state.quote.total,
        cryptoAmount: state.quote.cryptoAmount,
        cryptoCurrency: state.quote.cryptoCurrency,
        createdAt: clock.now(),
      }
      // The purchase exists: keep it before anything else, so no return path can lose it.
      store.save(record)
      dispatch({ type: 'PURCHASED', purchase: record, redirectUrl: created.redirectUrl })
    } catch (error) {
      if (alive()) dispatch({ type: 'PURCHASE_FAILED', problem: describeError(error) })
    }
  }

  function redirect(state: Extract<CardState, { tag: 'redirect' }>) {
    const checked = validateRedirect(state.redirectUrl, config.cardHosts, config.sandbox)
    if (!checked.ok) return dispatch({ type: 'REDIRECT_REFUSED', problem: checked.problem })
    deps.navigate(checked.url)
  }

  return createEffectRunner(effectOf)
}
