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
    const query =
      'partner=shop&flow=card&walletAddress=0xAbC0000000000000000000000000000000000001&returnUrl=https%3A%2F%2Fshop.example%2Fdone%3Fa%3D1&note=a+b%20c&expires=4102444800'
    const signed = await signWidgetUrl(`https://cdn.example/w/?${query}`, privateKey)
    const match = /^https:\/\/cdn\.example\/w\/\?(.*)&signature=([A-Za-z0-9_-]+)$/.exec(signed)
    expect(match?.[1]).toBe(query) // order and encoding untouched
    expect(match?.[2]).toHaveLength(86) // 64 bytes in base64url, no padding
    expect(await verifyRaw(publicKey, query, match![2])).toBe(true)
    expect(await verifyRaw(publicKey, query.replace('flow=card', 'flow=deposit'), match![2])).toBe(false)
  })

  it('puts the signature last and replaces an existing one wherever it was', async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    const signed = await signWidgetUrl('https://cdn.example/?a=1&signature=AAAA&b=%2F&signature=BBBB#frag', privateKey, { expiresIn: null })
    expect(signed).toMatch(/^https:\/\/cdn\.example\/\?a=1&b=%2F&signature=[A-Za-z0-9_-]{86}#frag$/)
    expect(signed.match(/signature=/g)).toHaveLength(1)
    const again = await signWidgetUrl(signed, privateKey, { expiresIn: null })
    expect(again.match(/signature=/g)).toHaveLength(1)
    expect(again.split('#')[0]).toMatch(/^https:\/\/cdn\.example\/\?a=1&b=%2F&signature=/)
    const signature = /signature=([^&#]+)/.exec(again)![1]
    expect(await verifyRaw(publicKey, 'a=1&b=%2F', signature)).toBe(true)
  })

  it('takes a URL object and a link without a query', async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    const bare = await signWidgetUrl(new URL('https://cdn.example/embed.html'), privateKey, { expiresIn: null })
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

  it('adds an expires 30 minutes ahead by default, inside the signed string, before the signature', async () => {
    const { publicKey, privateKey } = await generateSigningKeys()
    const before = Math.floor(Date.now() / 1000)
    const signed = await signWidgetUrl('https://cdn.example/?partner=shop&partnerToken=user-1', privateKey)
    const after = Math.floor(Date.now() / 1000)
    const match = /\?partner=shop&partnerToken=user-1&expires=(\d+)&signature=([A-Za-z0-9_-]{86})$/.exec(signed)
    expect(match, signed).not.toBeNull()
    expect(Number(match![1])).toBeGreaterThanOrEqual(before + 1800)
    expect(Number(match![1])).toBeLessThanOrEqual(after + 1800)
    expect(await verifyRaw(publicKey, `partner=shop&partnerToken=user-1&expires=${match![1]}`, match![2])).toBe(true)
  })

  it('takes another lifetime (expiresIn, seconds), and keeps an expires the link already has', async () => {
    const { privateKey } = await generateSigningKeys()
    const now = Math.floor(Date.now() / 1000)
    const short = new URL(await signWidgetUrl('https://cdn.example/?partner=shop&reference=o-1', privateKey, { expiresIn: 120 }))
    expect(Number(short.searchParams.get('expires')) - now).toBeGreaterThanOrEqual(120)
    expect(Number(short.searchParams.get('expires')) - now).toBeLessThanOrEqual(121)
    const explicit = await signWidgetUrl('https://cdn.example/?partner=shop&expires=4102444800&reference=o-1', privateKey, { expiresIn: 120 })
    expect(explicit).toMatch(/^https:\/\/cdn\.example\/\?partner=shop&expires=4102444800&reference=o-1&signature=[A-Za-z0-9_-]{86}$/)
  })

  it('signs without expires only when told (expiresIn: null), and then refuses a link with a partnerToken or a reference', async () => {
    const { privateKey } = await generateSigningKeys()
    const lasting = await signWidgetUrl('https://cdn.example/?partner=shop&walletAddress=0x1', privateKey, { expiresIn: null })
    expect(lasting).toMatch(/^https:\/\/cdn\.example\/\?partner=shop&walletAddress=0x1&signature=[A-Za-z0-9_-]{86}$/)
    await expect(signWidgetUrl('https://cdn.example/?partner=shop&partnerToken=user-1', privateKey, { expiresIn: null })).rejects.toThrow(
      /partnerToken.*expires/,
    )
    await expect(signWidgetUrl('https://cdn.example/?partner=shop&reference=o-1', privateKey, { expiresIn: null })).rejects.toThrow(/reference.*expires/)
    await expect(signWidgetUrl('https://cdn.example/?a=1', privateKey, { expiresIn: 0 })).rejects.toThrow(/expiresIn/)
  })

  it('refuses a returning buyer (accountId, walletId) without expires, as the widget does', async () => {
    const { privateKey } = await generateSigningKeys()
    const buyer = 'https://cdn.example/?partner=shop&accountId=acc_1&walletId=wal_1&walletAddress=0x1'
    await expect(signWidgetUrl(buyer, privateKey, { expiresIn: null })).rejects.toThrow(/accountId.*expires/)
    await expect(signWidgetUrl('https://cdn.example/?partner=shop&walletId=wal_1', privateKey, { expiresIn: null })).rejects.toThrow(/walletId.*expires/)
    expect(new URL(await signWidgetUrl(buyer, privateKey)).searchParams.get('expires')).toMatch(/^\d+$/)
  })

  it('refuses a key that is not an EC P-256 private JWK', async () => {
    const { publicKey } = await generateSigningKeys()
    await expect(signWidgetUrl('https://cdn.example/?a=1', publicKey)).rejects.toThrow(/EC P-256 private JWK/)
  })
})
