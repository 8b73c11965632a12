import { describe, expect, it } from 'vitest'
import { verifySignedQuery } from '../../../src/config/signedLink'
import { generateSigningKeys, signWidgetUrl } from '../../../src/server/index'

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const

async function verifyRaw(publicJwk: JsonWebKey, signed: string, signature: string) {
  const key = await crypto.subtle.importKey('jwk', publicJwk, ECDSA, false, ['verify'])
  const raw = Uint8Array.from(atob(signature.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  expect(raw.length).toBe(64) // raw r‖s, not DER
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw, new TextEncoder().encode(signed))
}

describe('signWidgetUrl', () => {
  it('signs the query string exactly as sent, and the signature verifies with WebCrypto over that string', async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    expect(Object.keys(publicKey).sort()).toEqual(['crv', 'kty', 'x', 'y'])
    const query = 'partner=shop&flow=card&walletAddress=0xAbC0000000000000000000000000000000000001&returnUrl=https%3A%2F%2Fshop.example%2Fdone%3Fa%3D1&note=a+b%20c&expires=4102444800'
    const signed = await signWidgetUrl(`https://cdn.example/w/?${query}`, privateKey)
    const match = /^https:\/\/cdn\.example\/w\/\?(.*)&signature=([A-Za-z0-9_-]+)$/.exec(signed)
    expect(match?.[1]).toBe(query) // order and encoding untouched
    expect(match?.[2]).toHaveLength(86) // 64 bytes in base64url, no padding
    expect(await verifyRaw(publicKey, query, match![2])).toBe(true)
    expect(await verifyRaw(publicKey, query.replace('flow=card', 'flow=deposit'), match![2])).toBe(false)
  })

  it('puts the signature last and replaces an existing one wherever it was', async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    const signed = await signWidgetUrl('https://cdn.example/?a=1&signature=AAAA&b=%2F&signature=BBBB#frag', privateKey)
    expect(signed).toMatch(/^https:\/\/cdn\.example\/\?a=1&b=%2F&signature=[A-Za-z0-9_-]{86}#frag$/)
    expect(signed.match(/signature=/g)).toHaveLength(1)
    const again = await signWidgetUrl(signed, privateKey)
    expect(again.match(/signature=/g)).toHaveLength(1)
    expect(again.split('#')[0]).toMatch(/^https:\/\/cdn\.example\/\?a=1&b=%2F&signature=/)
    const signature = /signature=([^&#]+)/.exec(again)![1]
    expect(await verifyRaw(publicKey, 'a=1&b=%2F', signature)).toBe(true)
  })

  it('takes a URL object and a link without a query', async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    const bare = await signWidgetUrl(new URL('https://cdn.example/embed.html'), privateKey)
    const signature = /\?signature=([A-Za-z0-9_-]{86})$/.exec(bare)![1]
    expect(await verifyRaw(publicKey, '', signature)).toBe(true)
  })

  it("is what the widget's verifier accepts, and a changed value is refused by it", async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    const signed = new URL(await signWidgetUrl('https://cdn.example/?partner=shop&walletAddress=0x1&expires=4102444800', privateKey))
    expect(await verifySignedQuery(signed.search, publicKey)).toEqual({ ok: true, expires: 4102444800 })
    const tampered = signed.search.replace('walletAddress=0x1', 'walletAddress=0x2')
    expect(await verifySignedQuery(tampered, publicKey)).toEqual({ ok: false, reason: 'mismatch' })
  })

  it('refuses a key that is not an EC P-256 private JWK', async () => {
    const { publicKey } = await generateSigningKeys()
    await expect(signWidgetUrl('https://cdn.example/?a=1', publicKey)).rejects.toThrow(/EC P-256 private JWK/)
  })
})
