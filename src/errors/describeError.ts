// Any failure as a problem the buyer can read (a catalog key, plus the code for support): where
// errors are caught, in the flows' effects. words.ts says it in words.
import { enRefusals } from '../i18n/en-refusals'
import { addEnglish } from '../i18n/i18n'
import type { Problem } from './problem'
import { ApiError, KycPending, NetworkError, PartnerUnreachableError, QuoteExpired, RateLimitedError, ResponseShapeError } from './ApiError'

/** A 400 that names an amount (its message starts "fiatAmount: …"): said in the buyer's words, the service's text kept for support. */
addEnglish(enRefusals)

const AMOUNT_FIELDS = /^(fiatAmount|cryptoAmount|amount):/

export function describeError(error: unknown): Problem {
  if (error instanceof ApiError) {
    const code = error.code
    if (error.key) return { key: error.key, code, detail: error.partnerDetail ?? error.serverMessage }
    if (error instanceof QuoteExpired) return { key: 'error.quoteExpired', code }
    if (error instanceof KycPending) return { key: 'onboarding.kycPending', code }
    // A rate (the service's, or the partner kit's per user) still held after the waits: said as such.
    if (error instanceof RateLimitedError) return { key: 'error.busy', code }
    // 422 on the partner path: no rail for a currency and country (the bank flows).
    if (code === 'no_route' && error.status === 422) return { key: 'error.noRail', code }
    if (code === 'no_route') return { key: 'quote.noRoute', code }
    if (code === 'chain_not_allowed') return { key: 'error.chainNotAllowed', code }
    if (code === 'invalid_request')
      return { key: AMOUNT_FIELDS.test(error.serverMessage) ? 'amount.refused' : 'error.invalid', code, detail: error.serverMessage }
    if (code === 'account_not_found') return { key: 'error.accountNotFound', code }
    if (code === 'requires_action') return { key: 'error.requiresAction', code }
    if (code === 'upstream_error' || error.status === 502) return { key: 'error.upstream', code }
    if (error.status >= 500) return { key: 'error.server', code }
    return { key: 'error.unknown', code, detail: error.serverMessage }
  }
  // The browser cannot tell a CORS refusal from an outage; only an offline browser is the buyer's side.
  if (error instanceof PartnerUnreachableError && globalThis.navigator?.onLine !== false) return { key: 'error.partnerUnreachable' }
  if (error instanceof NetworkError) return { key: 'error.network' }
  if (error instanceof ResponseShapeError) return { key: 'error.shape', detail: error.details }
  return { key: 'error.unknown' }
}
