// The links the widget hands to a page it sends the buyer to (the card page, the identity provider),
// to come back to this one. Only the flows that leave the page load this module: not the first load.
import { withoutPairs } from './signedLink'

/**
 * This very link, to come back to from a page we send the buyer to (card page, identity provider):
 * the query verbatim, without a spent `authCode` and without a `partnerToken` (a bearer for no
 * third party: this tab keeps it, see config/pageLink.ts, and the signature holds again with it). An unsigned
 * link also names the flow, so the return opens it; a signed one is never changed (without a flow
 * in it, the buyer picks the flow again and the persisted one resumes).
 */
export function returnToThisLink(href: string, flow: string): string {
  const back = withoutPairs(withoutPairs(href, 'authCode'), 'partnerToken')
  const { searchParams } = new URL(back)
  if (searchParams.has('signature') || searchParams.get('flow') === flow) return back
  const [, head, tail] = /^([^#]*)(.*)/s.exec(withoutPairs(back, 'flow'))!
  return `${head}${head.includes('?') ? '&' : '?'}flow=${encodeURIComponent(flow)}${tail}`
}

/**
 * The identity provider's page, returning to this very link with `authCode` added (see
 * returnToThisLink). `tier`: a higher verification tier, which the service asked for (422 requires_action).
 */
export function identityHref(identityUrl: string, flow: string, tier?: 'higher'): string {
  const url = new URL(identityUrl)
  url.searchParams.set('returnUrl', returnToThisLink(location.href, flow))
  if (tier) url.searchParams.set('tier', tier)
  return url.href
}
