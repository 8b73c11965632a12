import { withoutPairs } from '../config/signedLink'

/**
 * In a frame, the same widget as a full page (a wallet that does not inject into frames works
 * there); outside one, nothing. The query string stays as it came, so a signed link verifies on the
 * full page; never with a partnerToken, which stays with this frame (a new tab holds none: a link
 * with one does not start there).
 */
export function fullPageHref(): string | undefined {
  if (window.self === window.top) return undefined
  const url = new URL(withoutPairs(location.href, 'partnerToken'))
  return `${url.origin}${url.pathname.replace(/embed\.html$/, '')}${url.search}`
}
