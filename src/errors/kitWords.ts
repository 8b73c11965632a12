// The codes only the partner kit answers with (src/server, README "The kit's own codes"), in the
// buyer's words. The service never sends them. Fetched when a flow opens its door to the partner's
// backend (api/partnerHttp.ts), or again with its first error answer; never with the flow itself.
import { enPartner } from '../i18n/en-partner'
import { type MessageKey, addEnglish } from '../i18n/i18n'
import type { ApiError } from './ApiError'

addEnglish(enPartner)

// Refused before anything reached the service, for a reason the buyer can do nothing about.
const refused = 'partner.refused'
const server = 'error.server'
const WORDS = new Map<string, MessageKey>([
  ['unauthenticated', 'partner.signIn'],
  ['origin_not_allowed', refused],
  ['route_not_found', refused],
  ['method_not_allowed', refused],
  ['unsupported_media_type', refused],
  ['body_too_large', refused],
  // The kit's adapter for node:http (src/server/node.ts): a body that did not arrive, a request it cannot read.
  ['request_timeout', server],
  ['bad_request', refused],
  ['invalid_json', refused],
  ['duplicate_key', refused],
  ['invalid_field', 'error.invalid'],
  ['service_unreachable', server],
  ['service_refused_key', server],
  ['service_unreadable', server],
  // Issue 29: ownership, limits and the crypto deposit's chain.
  ['payment_not_found', refused],
  ['account_not_owned', refused],
  ['user_limit_reached', 'partner.userLimit'],
  ['chain_not_configured', refused],
  ['deposit_unverified', refused],
  ['chain_unreachable', server],
  // The wallet check before a deposit (src/server/walletLink.ts).
  ['wallet_not_linked', refused],
  ['wallet_unverified', 'partner.walletUnverified'],
  ['wallet_not_owned', 'partner.walletTaken'],
  // A deposit paid by address (src/server/depositAddress.ts): the address was another buyer's; the transfer not as quoted.
  ['deposit_address_taken', 'partner.addressTaken'],
  // The service named the partner's own address as the deposit address: not shown (the service's fault, asked again).
  ['deposit_address_refused', server],
  ['deposit_not_as_quoted', refused],
  // The kit's own rule of where deposits settle (depositDestination): the shop's setup, nothing the buyer can change.
  ['destination_not_configured', refused],
  ['destination_not_allowed', refused],
  // The service's own codes that only the partner path carries (the kit passes them through):
  // a key without the endpoint's permission, and the banking partner's identity check not approved
  // (docs/assumptions.md: a payout or a one-off bank deposit answers 400 KYC_PENDING or KYC_REJECTED).
  ['permission_denied', 'partner.notOffered'],
  ['KYC_PENDING', 'partner.kycPending'],
  ['KYC_REJECTED', 'partner.kycRejected'],
])

/** The permission each endpoint needs (partner-api.md, Authentication 7), by the kit's path (the service's without /v1). */
const PERMISSIONS: ReadonlyArray<[RegExp, string]> = [
  [/^\/bank\/payout(\/|$)/, 'bank-payouts'],
  [/^\/bank\/deposit(\/|$)/, 'bank'],
  [/^\/card\/payout(\/|$)/, 'card-payouts'],
  [/^\/virtual-accounts(\/|$)/, 'virtual-accounts'],
]

/** Which permission a refused call lacked, where the contract names one; else which call was refused. */
export function refusedPermission(path: string): string {
  const bare = path.split('?')[0]
  const permission = PERMISSIONS.find(([pattern]) => pattern.test(bare))?.[1]
  return permission ? `missing permission: ${permission} (${bare})` : `permission refused for ${bare}`
}

/**
 * The error, with the buyer's words for a code of the kit's own, or of the service's that only the
 * partner path carries (describeError reads them); `path`: the call refused, for the partner's logs.
 */
export function withKitWords(error: ApiError, path?: string): ApiError {
  error.key = WORDS.get(error.code)
  if (error.code === 'permission_denied' && path) error.partnerDetail = refusedPermission(path)
  return error
}
