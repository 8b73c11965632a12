// Signed links from an attacker's side (tampered, replayed late, a pair given twice), and the links
// the widget hands on, which must still verify when the buyer comes back.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { type RegistryEntry, resolveLink } from '../../../src/config/link'
import { returnToThisLink } from '../../../src/config/returnLink'
import { verifySignedQuery } from '../../../src/config/signedLink'
import { signWidgetUrl } from '../../../src/server/sign'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8'))
const privateKey = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']
const NOW = Date.UTC(2026, 10, 23, 12)
const WALLET = '0x1111111111111111111111111111111111111111'
const EVIL = '0x000000000000000000000000000000000000dEaD'
const PAGE = 'https://widget.example/'

const search = (href: string) => new URL(href).search

/**
 * What CardFlow.tsx (lines 55-59) gives the service as the card's `returnUrl`: the page's own
 * href, re-serialised by `URLSearchParams.set('flow', 'card')`. Kept identical to that code.
 */
// What CardFlow hands the card page as its returnUrl (src/flows/card/CardFlow.tsx).
const cardReturnUrl = (href: string) => returnToThisLink(href, 'card')

describe('signed links: attacks that held', () => {
  const base = async () => signWidgetUrl(`${PAGE}?partner=acme-shop&flow=deposit&walletAddress=${WALLET}&reference=order-1`, privateKey)

  it.each([
    ['case change in a signed value', (s: string) => s.replace('order-1', 'ORDER-1')],
    [
      'key percent-encoded (walletAddress → wallet%41ddress) with another value',
      (s: string) => s.replace(`walletAddress=${WALLET}`, `wallet%41ddress=${EVIL}`),
    ],
    ['second walletAddress after the signature', (s: string) => `${s}&walletAddress=${EVIL}`],
    ['second walletAddress, percent-encoded key', (s: string) => `${s}&%77alletAddress=${EVIL}`],
    ['second signature with another encoding of the key', (s: string) => `${s}&%73ignature=AAAA`],
    [
      'value swapped for one hidden in an authCode pair',
      (s: string) => s.replace(`walletAddress=${WALLET}`, `walletAddress=${EVIL}&authCode=walletAddress%3D${WALLET}`),
    ],
    ['empty pairs and an authCode added, value changed', (s: string) => s.replace(`walletAddress=${WALLET}`, `&&walletAddress=${EVIL}&&authCode=x`)],
    ['expires added after signing', (s: string) => `${s}&expires=99999999999`],
    ['signed-only key smuggled under a buyer-facing key', (s: string) => s.replace('flow=deposit', `flow=deposit&partnerToken=stolen`)],
  ])('%s is refused', async (_name, tamper) => {
    const href = tamper(await base())
    expect(await resolveLink(search(href), registry, NOW)).toMatchObject({ ok: false })
  })

  it('the untouched link, and the same link with an authCode appended by the identity provider, still start', async () => {
    const href = await base()
    expect(await resolveLink(search(href), registry, NOW)).toMatchObject({ ok: true })
    expect(await resolveLink(`${search(href)}&authCode=abc`, registry, NOW)).toMatchObject({ ok: true })
    // A very long authCode-free junk value is not a crash, just a mismatch.
    expect(await verifySignedQuery(`${search(href)}&x=${'a'.repeat(200_000)}`, registry[0].publicKey!, NOW)).toEqual({ ok: false, reason: 'mismatch' })
  })

  it('a link signed with expires is refused one second late, and expires cannot be given twice', async () => {
    const exp = Math.floor(NOW / 1000)
    const href = await signWidgetUrl(`${PAGE}?partner=acme-shop&walletAddress=${WALLET}&expires=${exp}`, privateKey)
    expect(await resolveLink(search(href), registry, NOW)).toMatchObject({ ok: false, code: 'bad_signature' })
    expect(await resolveLink(`${search(href)}&%65xpires=${exp + 999}`, registry, NOW - 5000)).toMatchObject({ ok: false })
  })
})

describe('signed links the widget hands on (legitimate flows)', () => {
  it('after a card payment the buyer comes back to a link that still verifies (a value the partner encoded with encodeURIComponent)', async () => {
    // A partner building its link by hand: encodeURIComponent writes a space as %20.
    const href = await signWidgetUrl(`${PAGE}?partner=acme-shop&flow=card&walletAddress=${WALLET}&reference=${encodeURIComponent('Order 42')}`, privateKey)
    expect(await resolveLink(search(href), registry, NOW)).toMatchObject({ ok: true })
    // The card host sends the buyer back to returnUrl: `reference=Order+42`, signature now a mismatch,
    // so the buyer who just paid lands on "this link was changed".
    const back = cardReturnUrl(href)
    expect(await resolveLink(search(back), registry, NOW)).toMatchObject({ ok: true })
  })

  it('after a card payment the buyer comes back to a link that still verifies (a signed link without `flow`, the flow picker)', async () => {
    const href = await signWidgetUrl(`${PAGE}?partner=acme-shop&walletAddress=${WALLET}`, privateKey)
    expect(await resolveLink(search(href), registry, NOW)).toMatchObject({ ok: true })
    // `flow=card` is appended after the signature: it is now inside the signed string.
    expect(await resolveLink(search(cardReturnUrl(href)), registry, NOW)).toMatchObject({ ok: true })
  })

  it('an authCode pair is dropped wherever it sits, even when a signed value holds a raw "?"', async () => {
    // A raw "?" is legal in a query and the format signs pairs "encoded as they appear".
    const href = await signWidgetUrl(`${PAGE}?partner=acme-shop&walletAddress=${WALLET}&returnUrl=https://shop.example/done?order=1`, privateKey)
    expect(await resolveLink(search(href), registry, NOW)).toMatchObject({ ok: true })
    // withoutPairs() takes the first "?" of the (already ?-less) signed string for the query start,
    // so an authCode before it is never removed.
    const withCode = search(href).replace('partner=acme-shop&', 'partner=acme-shop&authCode=abc&')
    expect(await resolveLink(withCode, registry, NOW)).toMatchObject({ ok: true })
  })
})
