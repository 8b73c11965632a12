import { describe, expect, it } from 'vitest'
import { walletAppLinks, walletAppsPage } from '../../../src/components/WalletApps'

describe("the wallet apps' links", () => {
  it('carry no bearer token and none of the pairs the identity provider or the card page add on the way back', () => {
    const page = walletAppsPage(
      'https://pay.example/p/acme/?partner=acme&flow=deposit&authCode=SECRETCODE&cardSession=cs_1&result=ok&partnerToken=TOKEN&amount=10',
    )
    expect(page).toBe('https://pay.example/p/acme/?partner=acme&flow=deposit&amount=10')
    for (const link of walletAppLinks(page)) expect(link.href).not.toMatch(/SECRETCODE|cs_1|TOKEN|result/)
  })

  it("carry no fragment: a page's token there (an OAuth implicit grant's #access_token) would reach the apps' link services", () => {
    const page = walletAppsPage('https://shop.example/checkout?flow=deposit&amount=10#access_token=BEARER&state=x')
    expect(page).toBe('https://shop.example/checkout?flow=deposit&amount=10')
    for (const link of walletAppLinks(page)) expect(link.href).not.toMatch(/BEARER|access_token/)
  })
})
