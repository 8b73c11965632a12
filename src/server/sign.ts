// Signed widget links (the widget checks them in src/config/signedLink.ts with the public key from
// the operator's registry). The signed string is the query string as sent, without the `?` and
// without any `signature=…` pair; the other pairs keep their order and encoding, joined by `&`.
// The signature is raw r‖s (64 bytes, what WebCrypto produces, not DER), base64url, no padding,
// appended as the last pair.

/** An EC JWK, as WebCrypto exports it (kept structural so no DOM typings are needed). */
export type EcJwk = { kty?: string; crv?: string; x?: string; y?: string; d?: string; [extra: string]: unknown }
export type PublicSigningJwk = { kty: 'EC'; crv: 'P-256'; x: string; y: string }
export type PrivateSigningJwk = PublicSigningJwk & { d: string }

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const
const SIGN = { name: 'ECDSA', hash: 'SHA-256' } as const

/** A fresh ECDSA P-256 pair: the public half goes in the operator's registry, the private half stays on the server. */
export async function generateSigningKeys(): Promise<{ publicKey: PublicSigningJwk; privateKey: PrivateSigningJwk }> {
  const pair = (await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as { privateKey: CryptoKey }
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as EcJwk
  const publicKey: PublicSigningJwk = { kty: 'EC', crv: 'P-256', x: String(jwk.x), y: String(jwk.y) }
  return { publicKey, privateKey: { ...publicKey, d: String(jwk.d) } }
}

/** How long a link lives by default: half an hour, in seconds. */
export const DEFAULT_LINK_LIFETIME = 1800

export type SignOptions = {
  /**
   * Seconds from now until the link expires (default 1800): an `expires` pair is added before the
   * signature, unless the link already has one (which is kept). `null` adds none, for a link
   * without a partnerToken, a reference or a buyer's accountId/walletId only: the widget refuses
   * those without an expiry.
   */
  expiresIn?: number | null
}

/**
 * The link with `signature=<r‖s, base64url>` as its last pair; an existing signature is replaced.
 * A link carries an `expires` (half an hour from now unless `expiresIn` says otherwise), so a link
 * that leaks (with its partnerToken, a bearer) stops working.
 */
export async function signWidgetUrl(url: string | URL, privateKeyJwk: EcJwk, { expiresIn = DEFAULT_LINK_LIFETIME }: SignOptions = {}): Promise<string> {
  const href = typeof url === 'string' ? url : url.href
  const hashAt = href.indexOf('#')
  const fragment = hashAt < 0 ? '' : href.slice(hashAt)
  const withoutFragment = hashAt < 0 ? href : href.slice(0, hashAt)
  const queryAt = withoutFragment.indexOf('?')
  const path = queryAt < 0 ? withoutFragment : withoutFragment.slice(0, queryAt)
  const query = queryAt < 0 ? '' : withoutFragment.slice(queryAt + 1)
  const pairs = query.split('&').filter((pair) => pair !== '' && !isSignaturePair(pair))
  const names = new Set(pairs.map(nameOf))
  if (expiresIn !== null && !names.has('expires')) {
    if (!Number.isSafeInteger(expiresIn) || expiresIn <= 0) throw new TypeError('signWidgetUrl: expiresIn must be a whole number of seconds above 0, or null')
    pairs.push(`expires=${Math.floor(Date.now() / 1000) + expiresIn}`)
  }
  // What acts for someone (a session, an order, a verified buyer): the widget refuses it in a link that never expires.
  const bearer = ['partnerToken', 'reference', 'accountId', 'walletId'].find((name) => names.has(name))
  if (bearer && !names.has('expires') && expiresIn === null) {
    throw new TypeError(`signWidgetUrl: a link with a ${bearer} needs an expires (the widget refuses it without one): leave expiresIn out or give it seconds`)
  }
  const signed = pairs.join('&')
  const key = await importPrivateKey(privateKeyJwk)
  const raw = new Uint8Array(await crypto.subtle.sign(SIGN, key, new TextEncoder().encode(signed)))
  const signature = `signature=${base64url(raw)}`
  return `${path}?${signed ? `${signed}&` : ''}${signature}${fragment}`
}

/** A pair's name, decoded as the widget decodes it. */
function nameOf(pair: string): string {
  const name = pair.split('=', 1)[0]
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}

const isSignaturePair = (pair: string) => nameOf(pair) === 'signature'

async function importPrivateKey(jwk: EcJwk): Promise<CryptoKey> {
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') {
    throw new TypeError('signWidgetUrl: the key must be an EC P-256 private JWK ({ kty: "EC", crv: "P-256", x, y, d })')
  }
  // Only the key material: a JWK exported elsewhere may carry key_ops or ext that forbid signing.
  const material = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d }
  return crypto.subtle.importKey('jwk', material, ALGORITHM, false, ['sign'])
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
