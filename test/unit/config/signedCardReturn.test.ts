// @vitest-environment happy-dom
// Review of issue 31 (card payout): the card page returns to the link it was given with
// `cardSession=<id>&result=ok|cancelled` added (assumed-contract.md, "Card payout: creation"). A
// link the partner signed must still start on that way back, as it does with the identity
// provider's `authCode`; otherwise every signed card payout link ends on "this link was changed".
import { readFileSync } from 'node:fs'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { RegistryEntry } from '../../../src/config/link'
import { readPageLink } from '../../../src/config/pageLink'
import { returnToThisLink } from '../../../src/config/returnLink'
import { signWidgetUrl } from '../../../src/server/sign'

const registry: RegistryEntry[] = JSON.parse(readFileSync('test/fixtures/partners.json', 'utf8')).map((entry: RegistryEntry) => ({
  ...entry,
  flows: ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout'],
}))
const privateKey = JSON.parse(readFileSync('test/fixtures/partners.private.json', 'utf8'))['acme-shop']
const WALLET = '0x1111111111111111111111111111111111111111'

/** The card page's way back: the returnUrl it was given, with its two pairs added. */
const cardPageReturn = (returnUrl: string, result: 'ok' | 'cancelled') => `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}cardSession=cs_1&result=${result}`

beforeEach(() => {
  sessionStorage.clear()
  history.replaceState(null, '', '/')
})

describe('a signed card payout link, back from the card page', () => {
  for (const [name, query] of [
    ['signed for a wallet (expires, no token)', `partner=acme-shop&flow=cardPayout&walletAddress=${WALLET}`],
    ['signed for a returning buyer', `partner=acme-shop&flow=cardPayout&walletAddress=${WALLET}&accountId=acc_1&walletId=w_1`],
    ['with a partnerToken', `partner=acme-shop&flow=cardPayout&walletAddress=${WALLET}&partnerToken=user-42`],
  ] as const) {
    it(`still starts, ${name}`, async () => {
      history.replaceState(null, '', await signWidgetUrl(`${location.origin}/?${query}`, privateKey))
      expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: true, options: { flow: 'cardPayout' } })
      // What CardPayoutFlow hands the card page (returnToThisLink of this link), then the page's way back.
      const returnUrl = returnToThisLink(location.href, 'cardPayout')
      for (const result of ['ok', 'cancelled'] as const) {
        history.replaceState(null, '', cardPageReturn(returnUrl, result))
        const back = await readPageLink(registry, sessionStorage)
        expect(back, `result=${result}`).toMatchObject({ ok: true, options: { flow: 'cardPayout', walletAddress: WALLET } })
      }
    })
  }

  it('the pairs the card page adds are tolerated only as those two: another added pair still fails', async () => {
    history.replaceState(null, '', await signWidgetUrl(`${location.origin}/?partner=acme-shop&flow=cardPayout&walletAddress=${WALLET}`, privateKey))
    await readPageLink(registry, sessionStorage)
    history.replaceState(null, '', `${location.href}&amount=5000`)
    expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: false, code: 'bad_signature' })
  })
})

describe('the card page’s way back is the card payout’s to read', () => {
  it('cardSession and result are not warned about as unknown options, signed or not', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const signed = await signWidgetUrl(`${location.origin}/?partner=acme-shop&flow=cardPayout&walletAddress=${WALLET}`, privateKey)
    for (const link of [signed, `${location.origin}/?partner=acme-shop&flow=cardPayout`]) {
      history.replaceState(null, '', cardPageReturn(link, 'ok'))
      expect(await readPageLink(registry, sessionStorage)).toMatchObject({ ok: true })
    }
    expect(warn.mock.calls.flat().filter((m) => String(m).includes('not an option of a link'))).toEqual([])
    history.replaceState(null, '', `${location.origin}/?partner=acme-shop&flow=cardPayout&colour=red`)
    await readPageLink(registry, sessionStorage)
    expect(warn.mock.calls.flat().filter((m) => String(m).includes('colour: not an option of a link'))).toHaveLength(1)
    warn.mockRestore()
  })
})
