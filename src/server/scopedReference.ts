// The idempotency reference as the service hears it: scoped to the partner's user. The service
// keys idempotency on the reference alone, per API key, and every user of the partner shares the
// key: forwarded as given, a reference one user sent first (Alice, under the reference Bob's signed
// link will carry) would make the service answer Bob with Alice's payment, which the kit never hands
// over (404), so Bob could not create his. The kit sends instead SHA-256 over JSON.stringify([userId,
// reference]) in hex: one-way, stable (a retry by the same user is the same payment), 64 characters
// (the contract's maximum), and the JSON array encodes the pair without ambiguity. No secret is
// needed: the user is the one `authenticate` answered, so no request can make the kit send a value
// derived from another user's id, and knowing the derivation does not help to forge one (that would
// take a SHA-256 preimage). A secret would hide the pair from the service only where it could guess
// both, and losing or rotating it would change every reference, breaking idempotency mid-retry.

/** The reference forwarded for this user's `reference`. */
export async function scopedReference(userId: string, reference: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([userId, reference])))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
