// The hosted page's or the frame's own link, read once (../shared/SECURITY.md: a bearer token never
// travels in a URL to a third party). Its `partnerToken` leaves the address bar as soon as the
// signature has held, so no link the widget builds from its location (the identity provider's and
// the card page's returnUrl, the full page) carries it. This tab keeps the link as it came, token
// included, in sessionStorage: a reload, or a return from the identity provider or the card page,
// finds the token there and the signature is checked again over the link as signed. A tab that
// never held it (a new tab, another browser) cannot pass the check: the link does not start there,
// and the buyer reads that it was changed or has expired (start again from the partner's site).
import { type LinkResult, type RegistryEntry, resolveLink } from './link'
import { withoutPairsInQuery, withoutReturnPairs } from './signedLink'
import { linkSessionStorage } from '../storage/safeStorage'

/**
 * sessionStorage: the key ends with the link as the address bar then holds it (without its token
 * and the return pairs, withoutReturnPairs); the value is the link as signed, its partnerToken included.
 */
export const VERIFIED_LINK_KEY = 'stablecoin-widget:v1:verified-link:'

export async function readPageLink(registry: readonly RegistryEntry[], session = linkSessionStorage()): Promise<LinkResult> {
  const search = location.search.slice(1)
  const bare = withoutPairsInQuery(search, 'partnerToken')
  const key = VERIFIED_LINK_KEY + withoutReturnPairs(bare)
  // A link this tab checked before, its expiry then included: the signature is checked again over
  // it (with the identity provider's or the card page's return pairs), its expiry not, so a buyer
  // back from a long card or identity page resumes. No other tab holds it.
  const kept = bare === search && session?.getItem(key)
  const codes = search.split('&').filter((pair) => !withoutReturnPairs(pair))
  const link = await resolveLink(kept ? [kept, ...codes].join('&') : search, registry, kept ? 0 : undefined)
  // Kept: a link with a token, and any that expires (the way back from a card page must not expire).
  if (link.ok && !kept && (bare !== search || /(^|&)expires=/.test(search))) {
    try {
      session?.setItem(key, withoutReturnPairs(search))
    } catch {}
    history.replaceState(null, '', `?${bare}${location.hash}`)
  }
  return link
}
