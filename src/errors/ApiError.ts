import type { MessageKey } from '../i18n/i18n'
import { WidgetError } from './WidgetError'

/** The service answered with its error envelope (or a status we could not read as one). */
export class ApiError extends WidgetError {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly serverMessage: string
  /** The buyer's words for a code only the partner's kit sends (errors/kitWords.ts); no field at runtime until set. */
  declare key?: MessageKey
  /** What the partner's logs read instead of the service's message (a refused permission: errors/kitWords.ts); unset until set. */
  declare partnerDetail?: string

  constructor(status: number, code: string, serverMessage: string) {
    super(`The service answered ${status} ${code}`, { details: serverMessage })
    this.status = status
    this.code = code
    this.serverMessage = serverMessage
  }
}

/** 429: the caller should wait `retryAfterMs` (when the service said) and try again. */
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError'
  readonly retryAfterMs?: number

  constructor(retryAfterMs: number | undefined, serverMessage = '') {
    super(429, 'rate_limited', serverMessage)
    this.retryAfterMs = retryAfterMs
  }
}

// Domain errors: src/api/ reads the service's answer once and throws one of these, so no code
// outside it reads a server message or matches a code.

/** A 400 that names the field it refused (the message starts "path.to.field: …"). */
export class FieldRejected extends ApiError {
  override name = 'FieldRejected'
  /** The request's field path as the service wrote it, e.g. `individual.email`; absent when unnamed. */
  readonly field?: string
  constructor(status: number, code: string, serverMessage: string) {
    super(status, code, serverMessage)
    this.field = /^([\w.]+):/.exec(serverMessage)?.[1]
  }
}

/** The identity code was refused (any 400 of /fiat/onboard): it is spent, a new one is needed. */
export class AuthCodeRejected extends FieldRejected {
  override name = 'AuthCodeRejected'
}

/** The account cannot open yet: the identity check is still pending. */
export class KycPending extends ApiError {
  override name = 'KycPending'
}

/** 409 quote_expired: the quote is past its `expiresAt`; quote again. */
export class QuoteExpired extends ApiError {
  override name = 'QuoteExpired'
}

/** no_route: nothing can route this right now (400 on a deposit quote, 422 on partner paths). */
export class NoRoute extends ApiError {
  override name = 'NoRoute'
}

/** No answer: offline, DNS, CORS refusal, timeout. */
export class NetworkError extends WidgetError {
  override name = 'NetworkError'
  constructor(cause: unknown) {
    super('The service could not be reached', { cause })
  }
}

/** The partner's own backend (partnerBase) gave no answer: down, or refusing this page in CORS. */
export class PartnerUnreachableError extends NetworkError {
  override name = 'PartnerUnreachableError'
}

/** The answer did not have the shape of the contract; `path` names the field. */
export class ResponseShapeError extends WidgetError {
  override name = 'ResponseShapeError'
  readonly path: string
  constructor(endpoint: string, path: string, problem: string) {
    super(`Unexpected answer from ${endpoint}`, { details: `${path || '(body)'}: ${problem}` })
    this.path = path
  }
}

export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof ResponseShapeError) return true
  // A 429 is a rate only as rate_limited: the partner kit's user_limit_reached does not lift in a moment.
  return error instanceof ApiError && (error.status >= 500 || (error.status === 429 && error.code === 'rate_limited'))
}
