// The codes the kit answers with on its own (README, "The kit's own codes"); the service uses none
// of them, so that the partner's logs tell a refusal here from the service's.

export const KIT_CODES = new Set([
  'origin_not_allowed',
  'route_not_found',
  'method_not_allowed',
  'unauthenticated',
  'unsupported_media_type',
  'body_too_large',
  'request_timeout',
  'bad_request',
  'invalid_json',
  'duplicate_key',
  'invalid_field',
  'kit_error',
  'service_unreachable',
  'service_refused_key',
  'service_unreadable',
  'service_error',
  'payment_not_found',
  'account_not_owned',
  'user_limit_reached',
  'user_rate_limited',
  'chain_not_configured',
  'chain_unreachable',
  'deposit_unverified',
  'deposit_not_as_quoted',
  'deposit_address_taken',
  'deposit_address_refused',
  'destination_not_configured',
  'destination_not_allowed',
  'wallet_not_linked',
  'wallet_unverified',
  'wallet_not_owned',
] as const)
export type KitCode = typeof KIT_CODES extends Set<infer C> ? C : never

/** How a request is answered: a JSON body, or the error envelope with one of the kit's codes. */
export type Answerer = {
  reply(status: number, body: unknown, headers?: Record<string, string>): Response
  fail(status: number, code: KitCode, message: string, headers?: Record<string, string>): Response
}
