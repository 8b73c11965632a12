// One place maps any failure to what the buyer reads: a catalog key, plus the code for support.
import type { Problem } from '../flows/deposit/machine'
import { t } from '../i18n/i18n'
import { ApiError, NetworkError, PartnerUnreachableError, ResponseShapeError } from './ApiError'

export function describeError(error: unknown): Problem {
  if (error instanceof ApiError) {
    const code = error.code
    if (code === 'no_route') return { key: 'quote.noRoute', code }
    if (code === 'chain_not_allowed') return { key: 'error.chainNotAllowed', code }
    if (code === 'invalid_request') return { key: 'error.invalid', code, detail: error.serverMessage }
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

/** What the buyer reads for a problem, on screen and in the `error` event alike. */
export function problemText(problem: Problem): string {
  return t(problem.key, { detail: problem.detail ?? '' })
}
