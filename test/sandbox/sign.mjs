// Signed links for the sandbox and the tests, with node:crypto (synchronous). Same format as the
// partner kit's signWidgetUrl and the widget's verifier (src/config/signedLink.ts): ECDSA P-256
// over the query string as sent (without `?` and the signature pair), raw r‖s, base64url.
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto'

export function generateSigningKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  return { publicKey: { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y }, privateKey: privateKey.export({ format: 'jwk' }) }
}

/** The query string (no `?`) without any signature pair, kept verbatim otherwise. */
export function unsignedQuery(query) {
  return query
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair !== '' && safeDecode(pair.split('=', 1)[0]) !== 'signature')
    .join('&')
}

export function signQuery(query, privateJwk) {
  const signed = unsignedQuery(query)
  const key = createPrivateKey({ key: privateJwk, format: 'jwk' })
  const signature = sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')
  return `${signed}&signature=${signature}`
}

/** A URL with its query signed (any signature it had is replaced). */
export function signUrl(href, privateJwk) {
  const [rest, hash = ''] = href.split('#', 2)
  const at = rest.indexOf('?')
  const path = at < 0 ? rest : rest.slice(0, at)
  return `${path}?${signQuery(at < 0 ? '' : rest.slice(at + 1), privateJwk)}${hash ? `#${hash}` : ''}`
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}
