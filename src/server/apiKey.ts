// The partner's API key, as a string or read on every request from a function (a rotated key is
// used without a restart: the service stops the old one the moment the new one is in place).
// Only its fingerprint is ever written down.

export type ApiKey = string | (() => string | Promise<string>)

const PRINTABLE = /^[\x21-\x7e]+$/

/** The key to use now; throws a TypeError that never holds the value read. */
export async function readApiKey(apiKey: ApiKey): Promise<string> {
  const key = typeof apiKey === 'function' ? await apiKey() : apiKey
  if (typeof key !== 'string' || !PRINTABLE.test(key)) throw new TypeError('apiKey must be a non-empty string of printable characters without spaces')
  return key
}

/** The first 8 hex digits of the key's SHA-256: enough to tell keys apart in a log, useless to spend. */
export async function keyFingerprint(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)))
  return [...digest.slice(0, 4)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}
