// To the card page: only a URL on the hosts the registry names for this partner (lib/redirect.ts).
import { validateRedirect } from '../../lib/redirect'
import type { CardContext } from './context'
import type { CardState } from './machine'

export function redirect(ctx: CardContext, state: Extract<CardState, { tag: 'redirect' }>) {
  const { config } = ctx
  const checked = validateRedirect(state.redirectUrl, config.cardHosts, config.sandbox)
  if (!checked.ok) return ctx.dispatch({ type: 'REDIRECT_REFUSED', problem: checked.problem })
  ctx.navigate(checked.url)
}
