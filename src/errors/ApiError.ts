import { WidgetError } from './WidgetError'

/** The service answered with its error envelope (or a status we could not read as one). */
export class ApiError extends WidgetError {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly serverMessage: string

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
  return error instanceof ApiError && (error.status >= 500 || error.status === 429)
}
