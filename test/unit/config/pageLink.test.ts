// @vitest-environment happy-dom
// Issue 28, finding 5: the partner's bearer token leaves the address bar once the link is checked,
// waits in this tab's sessionStorage, and no link the widget hands on carries it; a reload, or a
// return from the identity provider or the card page in this tab, finds it again.
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RegistryEntry } from '../../../src/config/link'
import { VERIFIED_LINK_KEY, readPageLink } from '../../../src/config/pageLink'
import { identityHref, returnToThisLink } from '../../../src/config/returnLink'
import { signWidgetUrl } from '../../../src/server/sign'

// The links here name onboarding too, which a production entry offers only when it names it.
const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8')).map((entry: RegistryEntry) => ({
  ...entry,
  flows: ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout'],
}))
const privateKey = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']
const TOKEN = 'user-42-secret'
const WALLET = '0x1111111111111111111111111111111111111111'

/** A link as the partner's server signs it, opened in this tab. */
async function open(query: string): Promise<string> {
  const href = await signWidgetUrl(`${location.origin}/?${query}`, privateKey)
  history.replaceState(null, '', href)
  return href
}
/** What the address bar or a handed-on link holds of the token: its name or its value anywhere. */
const leaks = (text: string) => text.includes('partnerToken') || text.includes(TOKEN) || decodeURIComponent(text).includes(TOKEN)

beforeEach(() => {
  sessionStorage.clear()
  history.replaceState(null, '', '/')
})
afterEach(() => vi.useRealTimers())

describe('the partnerToken of a hosted-page or frame link', () => {
  it('is honoured, then leaves the address bar and is kept in this tab only', async () => {
    await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}&walletAddress=${WALLET}`)
    const link = await readPageLink(registry, sessionStorage)
    expect(link).toMatchObject({ ok: true, options: { partnerToken: TOKEN, walletAddress: WALLET, flow: 'card' } })
    expect(leaks(location.href)).toBe(false)
    expect(location.search).toMatch(/^\?partner=acme-shop&flow=card&walletAddress=0x1{40}&expires=\d+&signature=/)
    const keys = Object.keys(sessionStorage)
    expect(keys.length).toBe(1)
    expect(keys[0].startsWith(VERIFIED_LINK_KEY)).toBe(true)
    expect(sessionStorage.getItem(keys[0])).toContain(`partnerToken=${TOKEN}`)
  })

  it('a token under a percent-encoded name leaves the address bar too', async () => {
    await open(`partner=acme-shop&flow=card&partner%54oken=${TOKEN}`)
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: true, options: { partnerToken: TOKEN } })
    expect(location.href).not.toContain(TOKEN)
    expect(returnToThisLink(`${location.origin}/?partner=acme-shop&partner%54oken=${TOKEN}&signature=x`, 'card')).not.toContain(TOKEN)
  })

  it('pairs added to the stripped link (another wallet, another token) do not pass with the kept token', async () => {
    await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}&walletAddress=${WALLET}`)
    await readPageLink(registry, sessionStorage)
    const stripped = location.href
    for (const added of ['&walletAddress=0x000000000000000000000000000000000000dEaD', '&partnerToken=stolen', '&expires=99999999999']) {
      history.replaceState(null, '', stripped + added)
      expect(await readPageLink(registry, sessionStorage), added).toMatchObject({ ok: false, code: 'bad_signature' })
    }
  })

  it('a reload after the token left the address bar starts again with it', async () => {
    await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}`)
    await readPageLink(registry, sessionStorage)
    const stripped = location.href
    const again = await readPageLink(registry, sessionStorage)
    expect(again).toMatchObject({ ok: true, options: { partnerToken: TOKEN } })
    expect(location.href).toBe(stripped)
  })

  it('the links handed on (identity provider, card page) carry no token, and the return with an authCode resumes with it', async () => {
    await open(`partner=acme-shop&flow=onboarding&partnerToken=${TOKEN}`)
    await readPageLink(registry, sessionStorage)
    const toIdentity = identityHref('https://id.example/start', 'onboarding')
    const back = new URL(toIdentity).searchParams.get('returnUrl')!
    expect(leaks(toIdentity)).toBe(false)
    expect(leaks(returnToThisLink(location.href, 'card'))).toBe(false)
    // The identity provider sends the buyer back to returnUrl with a code, in this tab.
    history.replaceState(null, '', `${back}&authCode=ac_1`)
    const link = await readPageLink(registry, sessionStorage)
    expect(link).toMatchObject({ ok: true, options: { partnerToken: TOKEN, authCode: 'ac_1', flow: 'onboarding' } })
  })

  it('back from the card page (cardSession and result added, assumed-contract.md) the signed link resumes, and nothing else added passes with them', async () => {
    // The card payout's card page sends the buyer back to returnUrl with its own pairs, in this tab.
    for (const [what, query, expiresIn] of [
      ['a token', `partner=acme-shop&flow=cardPayout&partnerToken=${TOKEN}`, undefined],
      ['an expiry', 'partner=acme-shop&flow=cardPayout', undefined],
      ['neither', 'partner=acme-shop&flow=cardPayout', null],
    ] as const) {
      sessionStorage.clear()
      history.replaceState(null, '', await signWidgetUrl(`${location.origin}/?${query}`, privateKey, { expiresIn }))
      expect(await readPageLink(registry, sessionStorage), what).toMatchObject({ ok: true })
      const back = `${returnToThisLink(location.href, 'cardPayout')}&cardSession=cs_1&result=ok`
      history.replaceState(null, '', back)
      expect(await readPageLink(registry, sessionStorage), what).toMatchObject({
        ok: true,
        options: { flow: 'cardPayout', ...(what === 'a token' ? { partnerToken: TOKEN } : {}) },
      })
      history.replaceState(null, '', `${back}&walletAddress=0x000000000000000000000000000000000000dEaD`)
      expect(await readPageLink(registry, sessionStorage), what).toMatchObject({ ok: false, code: 'bad_signature' })
    }
  })

  it('returnToThisLink leaves out a token even when the href still has one', async () => {
    const href = await signWidgetUrl(`https://widget.example/?partner=acme-shop&flow=card&partnerToken=${TOKEN}&reference=o-1`, privateKey)
    const back = returnToThisLink(href, 'card')
    expect(leaks(back)).toBe(false)
    expect(back).toBe(href.replace(`&partnerToken=${TOKEN}`, ''))
  })

  it('in a tab that never held the token (a new tab, another browser) the link does not start, and nothing is used without the token', async () => {
    await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}`)
    await readPageLink(registry, sessionStorage)
    sessionStorage.clear()
    const link = await readPageLink(registry, sessionStorage)
    // The buyer reads that the link was changed or has expired, and to start again from the partner's site.
    expect(link).toMatchObject({ ok: false, code: 'bad_signature', detail: 'signature: mismatch' })
  })

  it("another link's kept token is not used for this one", async () => {
    await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}&reference=order-1`)
    await readPageLink(registry, sessionStorage)
    history.replaceState(null, '', location.href.replace('order-1', 'order-2'))
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: false, code: 'bad_signature' })
  })

  it('a refused link keeps nothing', async () => {
    const href = await signWidgetUrl(`${location.origin}/?partner=acme-shop&flow=card&partnerToken=${TOKEN}&walletAddress=${WALLET}`, privateKey)
    history.replaceState(null, '', href.replace(WALLET, '0x000000000000000000000000000000000000dEaD'))
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: false, code: 'bad_signature' })
    expect(sessionStorage.length).toBe(0)
  })

  it('past its expires the link still resumes in the tab that opened it in time, and nowhere else', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}&reference=order-1`)
    const first = location.href
    await readPageLink(registry, sessionStorage)
    vi.setSystemTime(Date.now() + 3_600_000)
    // The buyer comes back from the card page an hour later: the same tab resumes.
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: true, options: { partnerToken: TOKEN } })
    // The original link itself, opened anew after its expiry, does not.
    sessionStorage.clear()
    history.replaceState(null, '', first)
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: false, code: 'bad_signature', detail: expect.stringContaining('expired') })
  })

  it('a link opened with its token again in the same tab is checked afresh (its expiry too)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const href = await open(`partner=acme-shop&flow=card&partnerToken=${TOKEN}`)
    await readPageLink(registry, sessionStorage)
    vi.setSystemTime(Date.now() + 3_600_000)
    history.replaceState(null, '', href)
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: false, detail: expect.stringContaining('expired') })
  })
})
