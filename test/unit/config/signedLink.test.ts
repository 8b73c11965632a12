import { describe, expect, it } from 'vitest'
import { type PublicJwk, verifySignedQuery, withoutPairs } from '../../../src/config/signedLink'

const subtle = globalThis.crypto.subtle
async function keys() {
  const pair = (await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair
  const jwk = await subtle.exportKey('jwk', pair.publicKey)
  return { pair, publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! } as PublicJwk }
}
const b64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('base64url')
async function sign(query: string, pair: CryptoKeyPair) {
  const sig = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, pair.privateKey, new TextEncoder().encode(query))
  return `${query}&signature=${b64url(sig)}`
}

const NOW = Date.UTC(2026, 10, 23, 12) // ms
const QUERY = 'partner=acme-shop&flow=card&walletAddress=0x1111111111111111111111111111111111111111&reference=order%2042'

describe('signed links (ECDSA P-256, raw r‖s, base64url)', async () => {
  const { pair, publicKey } = await keys()
  const other = await keys()
  const good = await sign(QUERY, pair)

  it('a good signature holds, with or without the leading ?', async () => {
    expect(await verifySignedQuery(good, publicKey, NOW)).toEqual({ ok: true })
    expect(await verifySignedQuery(`?${good}`, publicKey, NOW)).toEqual({ ok: true })
  })

  it.each([
    ['a changed value', (q: string) => q.replace('0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222')],
    ['reordered parameters', (q: string) => q.replace('partner=acme-shop&flow=card', 'flow=card&partner=acme-shop')],
    ['a removed parameter', (q: string) => q.replace('&reference=order%2042', '')],
    ['an added parameter', (q: string) => q.replace('flow=card', 'flow=card&lockAmount=1')],
    ['an added parameter after the signature', (q: string) => `${q}&walletAddress=0x2222222222222222222222222222222222222222`],
    ['a value encoded differently', (q: string) => q.replace('order%2042', 'order+42')],
  ])('%s breaks it', async (_name, tamper) => {
    expect(await verifySignedQuery(tamper(good), publicKey, NOW)).toEqual({ ok: false, reason: 'mismatch' })
  })

  it('expires in the past is refused; in the future it holds', async () => {
    const past = await sign(`${QUERY}&expires=${NOW / 1000 - 1}`, pair)
    const future = await sign(`${QUERY}&expires=${NOW / 1000 + 600}`, pair)
    expect(await verifySignedQuery(past, publicKey, NOW)).toEqual({ ok: false, reason: 'expired' })
    expect(await verifySignedQuery(future, publicKey, NOW)).toEqual({ ok: true, expires: NOW / 1000 + 600 })
  })

  it('an expires moved later by hand breaks the signature', async () => {
    const signed = await sign(`${QUERY}&expires=${NOW / 1000 - 1}`, pair)
    expect(await verifySignedQuery(signed.replace(`expires=${NOW / 1000 - 1}`, `expires=${NOW / 1000 + 9999}`), publicKey, NOW)).toEqual({
      ok: false,
      reason: 'mismatch',
    })
  })

  it('a wrong key is refused', async () => {
    expect(await verifySignedQuery(good, other.publicKey, NOW)).toEqual({ ok: false, reason: 'mismatch' })
  })

  it('a key that is not a P-256 point is refused', async () => {
    expect(await verifySignedQuery(good, { ...publicKey, x: 'AAAA' }, NOW)).toEqual({ ok: false, reason: 'bad_key' })
  })

  it.each([
    ['missing', QUERY, 'missing'],
    ['empty', `${QUERY}&signature=`, 'missing'],
    ['not base64url', `${QUERY}&signature=!!!`, 'malformed'],
    ['too short', `${QUERY}&signature=${'A'.repeat(43)}`, 'malformed'],
    ['DER instead of raw', `${QUERY}&signature=${Buffer.alloc(72, 1).toString('base64url')}`, 'malformed'],
    ['given twice', `${good}&signature=${good.split('signature=')[1]}`, 'duplicate'],
  ])('a %s signature is refused', async (_name, query, reason) => {
    expect(await verifySignedQuery(query, publicKey, NOW)).toEqual({ ok: false, reason })
  })

  it("the card page's way back (cardSession and result added, a card payout) keeps the signature; nothing else added does", async () => {
    expect(await verifySignedQuery(`${good}&cardSession=cs_1&result=ok`, publicKey, NOW)).toEqual({ ok: true })
    expect(await verifySignedQuery(`${good}&cardSession=cs_1&result=cancelled&authCode=ac_1`, publicKey, NOW)).toEqual({ ok: true })
    expect(await verifySignedQuery(`${good}&cardSession=cs_1&amount=9999`, publicKey, NOW)).toEqual({ ok: false, reason: 'mismatch' })
  })

  it('an authCode added by the identity provider on the way back keeps the signature', async () => {
    expect(await verifySignedQuery(`${good}&authCode=ac_123`, publicKey, NOW)).toEqual({ ok: true })
  })

  it('withoutPairs drops only the named pairs, verbatim otherwise', () => {
    expect(withoutPairs('https://w.test/?a=1&authCode=x&b=%2C#h', 'authCode')).toBe('https://w.test/?a=1&b=%2C#h')
    expect(withoutPairs('https://w.test/?a=1&b=2', 'c')).toBe('https://w.test/?a=1&b=2')
    expect(withoutPairs('https://w.test/?a=x?y&authCode=1', 'authCode')).toBe('https://w.test/?a=x?y')
  })
})
