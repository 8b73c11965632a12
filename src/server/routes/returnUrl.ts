// The returnUrl of a card page (card purchase, card-payout session): where the card provider sends
// the buyer back, held to the page that asks and forwarded as checked.
import type { Handle } from './route'

/** The route's handler, run on the request with its returnUrl checked and in canonical form. */
export function withReturnUrl(handle: Handle): Handle {
  return (call, data) => {
    const back = checkReturnUrl(data.returnUrl as string, call.origin, call.kit.config.allowedOrigins)
    if ('problem' in back) return Promise.resolve(call.fail(400, 'invalid_field', back.problem))
    return handle(call, { ...data, returnUrl: back.href })
  }
}

/**
 * Where a card page may send the buyer back: a page of the origin that asks (a caller without
 * Origin, a server: one of allowedOrigins), never a host a request names. The URL is read as a
 * browser reads it (WHATWG) and forwarded in that canonical form (`href`), so the provider gets the
 * URL that was checked. One another parser could read with another host is refused: a backslash,
 * a space or control character (a browser drops or reads them as `/`), user info (even empty), or
 * an authority whose host or port a browser rewrites (`%2E`, `127.1`, `https:host` without `//`).
 */
export function checkReturnUrl(raw: string, asking: string | null, allowedOrigins: readonly string[]): { href: string } | { problem: string } {
  const plain = {
    problem:
      'returnUrl: must be an absolute http or https URL written plainly: no backslash, space, control character or user name, and its host as a browser writes it',
  }
  if (/[\\\x00-\x20\x7f]/.test(raw)) return plain
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return plain
  }
  // The authority as RFC 3986 delimits it, which is how most non-browser libraries read it.
  const authority = /^https?:\/\/([^/?#]*)/i.exec(raw)?.[1]
  const parts = authority === undefined ? null : /^(\[[0-9A-Fa-f:.]+\]|[^@:[\]]+)(?::([0-9]*))?$/.exec(authority)
  if (!parts) return plain
  const [, host, port = ''] = parts
  const defaultPort = url.protocol === 'https:' ? '443' : '80'
  if (host.toLowerCase() !== url.hostname || !(port === url.port || (url.port === '' && (port === '' || port === defaultPort)))) return plain
  if (asking === null ? !allowedOrigins.includes(url.origin) : url.origin !== asking) {
    return { problem: 'returnUrl: must be a page of the origin that asks (one of allowedOrigins)' }
  }
  return { href: url.href }
}
