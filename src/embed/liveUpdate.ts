// `update()` on a mounted widget (embed/widgetMount.ts): the iframe page (a parent's `update`, `theme`
// and `authCode` messages) and partners' pages (the script tag, the element, the npm package) pass it
// to mountWidget; the hosted page, which nothing updates, does without it.
import type { WidgetOptions } from '../config/config'
import { parseLiveOptions } from '../config/live'
import type { Emit } from '../config/protocol'
import type { Services } from '../services'

/** `update()`: what may change after mounting (config/live.ts), applied whole or not at all. */
export function applyUpdate(services: Services, options: Partial<WidgetOptions>, emit: Emit) {
  const result = parseLiveOptions(options)
  if (!result.ok) {
    // Nothing of a bad update is applied; what the buyer sees stays as it was.
    console.error(`[stablecoin-widget] update: ${result.problem}`)
    emit('error', { code: 'bad_option', message: result.problem })
    return
  }
  const next = result.update
  // A locked amount was the embedding's (or, on a link, the partner's signed) decision: no
  // update, from a frame's parent page or any script, moves it.
  if (next.amount !== undefined && services.config.lockAmount) {
    const problem = 'amount: locked (lockAmount); mount the widget again to change it'
    console.error(`[stablecoin-widget] update: ${problem}`)
    emit('error', { code: 'bad_option', message: problem })
    return
  }
  // The locale is live everywhere: amounts are formatted and read with the new one from now on.
  if (next.locale) services.config.locale = next.locale
  const live = services.live.value
  services.live.value = {
    theme: next.theme ?? live.theme,
    brand: next.brand ?? live.brand,
    locale: next.locale ?? live.locale,
    amount: next.amount ?? live.amount,
    authCode: next.authCode ?? live.authCode,
  }
}
