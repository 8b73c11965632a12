// Signed links: the partner's server signs the query string of a hosted-page or iframe link with
// its ECDSA P-256 key; the widget checks it here with the public key from the operator's registry.
// WebCrypto only, no library. The format (the partner kit's signWidgetUrl writes exactly this):
// - the signed string is the query string as sent, without the `?` and without the `signature=…`
//   pair; the other pairs keep their order and their encoding, joined by `&`;
// - the signature is raw r‖s (64 bytes, as WebCrypto produces it, not DER), base64url, no padding;
// - an optional `expires` (Unix seconds) sits inside the signed string.

export type PublicJwk = { kty: 'EC'; crv: 'P-256'; x: string; y: string }

export type SignatureCheck = { ok: true; expires?: number } | { ok: false; reason: 'missing' | 'malformed' | 'duplicate' | 'mismatch' | 'expired' | 'bad_key' }

/** The signed string and the signature pair of a raw query string (with or without the `?`). */
export function splitSigned(search: string): { signed: string; signatures: string[] } {
  const query = search.replace(/^\?/, '')
  // A pair that withoutPairsInQuery drops, and not an empty one, is a signature pair.
  const signatures = query
    .split('&')
    .filter((pair) => pair && !withoutPairsInQuery(pair, 'signature'))
    .map((pair) => pair.slice(pair.split('=', 1)[0].length + 1))
  return { signed: withoutPairsInQuery(query, 'signature'), signatures }
}

export function base64urlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[\w-]*$/.test(text)) return undefined
  try {
    // atob takes base64 without its padding, and throws for a length that leaves 1 over 4.
    return Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/**
 * Checks the link's `signature` over its own query string with the partner's public key, and its
 * `expires` against `now` (milliseconds). Resolves; never throws.
 */
export async function verifySignedQuery(search: string, jwk: PublicJwk, now = Date.now()): Promise<SignatureCheck> {
  const { signed, signatures } = splitSigned(search)
  if (signatures.length === 0 || signatures[0] === '') return { ok: false, reason: 'missing' }
  if (signatures.length > 1) return { ok: false, reason: 'duplicate' }
  const raw = base64urlDecode(safeDecode(signatures[0]))
  if (!raw || raw.length !== 64) return { ok: false, reason: 'malformed' }
  let key: CryptoKey
  try {
    key = await crypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, ext: true }, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'verify',
    ])
  } catch {
    return { ok: false, reason: 'bad_key' }
  }
  // The pages we send the buyer to return to the link with their pairs added (withoutReturnPairs):
  // a signature that holds without them holds.
  const valid = (await verifies(key, raw, signed)) || (await verifies(key, raw, withoutReturnPairs(signed)))
  if (!valid) return { ok: false, reason: 'mismatch' }
  const [expires, more] = new URLSearchParams(signed).getAll('expires')
  if (more !== undefined) return { ok: false, reason: 'duplicate' }
  if (expires === undefined) return { ok: true }
  // At most 12 digits: a safe integer.
  if (!/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'malformed' }
  if (+expires * 1000 <= now) return { ok: false, reason: 'expired' }
  return { ok: true, expires: +expires }
}

async function verifies(key: CryptoKey, signature: Uint8Array<ArrayBuffer>, text: string): Promise<boolean> {
  try {
    return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, signature, new TextEncoder().encode(text))
  } catch {
    return false
  }
}

/** A bare query string (no `?`, no `#`) without the pairs named `name`, every other pair verbatim. */
export function withoutPairsInQuery(query: string, name: string): string {
  return query
    .split('&')
    .filter((pair) => pair !== '' && safeDecode(pair.split('=', 1)[0]) !== name)
    .join('&')
}

/**
 * A bare query string without the pairs a page we send the buyer to adds on the way back: the
 * identity provider's `authCode` (a buyer-facing option), the card page's `cardSession` and
 * `result` (assumed-contract.md; read only for the session this tab opened).
 */
export const withoutReturnPairs = (query: string): string => ['authCode', 'cardSession', 'result'].reduce(withoutPairsInQuery, query)

/** A whole href without the query pairs named `name`, everything else kept verbatim. */
export function withoutPairs(href: string, name: string): string {
  // What comes before the query (with its `?`), the query, the fragment.
  const [, head, query, tail] = /^([^?#]*\??)([^#]*)(.*)/s.exec(href)!
  return head + withoutPairsInQuery(query, name) + tail
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}
