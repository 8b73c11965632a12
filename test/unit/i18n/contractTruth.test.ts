// Sentences held against the contract (issue 39's truth sweep): partner-api.md says an expired crypto
// transfer "is refunded automatically by the routing layer" and not where to; 422 no_route is "no
// rail for a currency and country", which may be a bank, mobile money or a wallet, and is not said
// to be temporary; a virtual account's transfer without its reference "needs manual attribution".
import { describe, expect, it } from 'vitest'
import { enDeposit } from '../../../src/i18n/en-deposit'
import { en } from '../../../src/i18n/en'
import { enByAddress } from '../../../src/i18n/byAddress/en'
import { enOnboardingLater } from '../../../src/i18n/en-onboardingLater'
import { enPayout } from '../../../src/i18n/en-payout'

describe('English sentences say only what the contract says', () => {
  it('an expired deposit: refunded automatically, to no promised address; the buyer is told whom to ask', () => {
    for (const text of [enDeposit['expired.body'], enByAddress['byAddress.refund']]) {
      expect(text).not.toMatch(/address (that sent|it came from)|sent back to/)
      expect(text).toMatch(/refunds? (an expired transfer|it) automatically/)
      expect(text).toMatch(/contact the (shop|site)/i)
    }
    expect(enDeposit['expired.body']).not.toMatch(/do not need to do anything/)
  })
  it('no_route on a partner path names no bank and promises no "right now"', () => {
    expect(en['error.noRail']).not.toMatch(/bank|right now/i)
  })
  it('a failed or unfollowed deposit claims nothing the status does not say', () => {
    expect(enDeposit['failed.body']).not.toMatch(/nothing was delivered/)
    expect(enDeposit['unfollowed.body']).not.toMatch(/delivered or refunded/)
  })
  it('the virtual account’s reference: matched by hand, with no duration the contract does not give', () => {
    expect(enOnboardingLater['onboarding.referenceWarning']).not.toMatch(/days/)
  })
  it('a transfer on another network: not followed, with no fate the contract does not give ("lost")', () => {
    for (const text of [enByAddress['byAddress.exact'], enPayout['payout.onlyChain']]) {
      expect(text).not.toMatch(/\blost\b/)
      expect(text).toMatch(/may not be recover/)
    }
  })
})
