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
})
