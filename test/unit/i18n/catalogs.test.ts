import { describe, expect, it } from 'vitest'
import { messages as de } from '../../../src/i18n/de'
import { en } from '../../../src/i18n/en'
import { enCard } from '../../../src/i18n/en-card'
import { enCardLater } from '../../../src/i18n/en-cardLater'
import { enAmount } from '../../../src/i18n/shared/en-amount'
import { enCopy } from '../../../src/i18n/en-copy'
import { enWalletConnect } from '../../../src/i18n/en-walletConnect'
import { enIdentityWallet } from '../../../src/i18n/en-identityWallet'
import { enDeposit } from '../../../src/i18n/en-deposit'
import { enOnboarding } from '../../../src/i18n/en-onboarding'
import { enOnboardingLater } from '../../../src/i18n/en-onboardingLater'
import { enBankDeposit } from '../../../src/i18n/en-bankDeposit'
import { enLimits } from '../../../src/i18n/shared/en-limits'
import { enBeneficiary } from '../../../src/i18n/en-beneficiary'
import { enPartner } from '../../../src/i18n/en-partner'
import { enRefusals } from '../../../src/i18n/en-refusals'
import { enPayout } from '../../../src/i18n/en-payout'
import { enPayoutByAddress } from '../../../src/i18n/en-payoutByAddress'
import { enCardPayout } from '../../../src/i18n/en-cardPayout'
import { enByAddress } from '../../../src/i18n/byAddress/en'
import { messages as es } from '../../../src/i18n/es'
import { messages as fr } from '../../../src/i18n/fr'
import { addEnglish, loadLocale, t } from '../../../src/i18n/i18n'
import { messages as ptBR } from '../../../src/i18n/pt-BR'

const parts = {
  en,
  enCard,
  enCardLater,
  enDeposit,
  enOnboarding,
  enOnboardingLater,
  enBankDeposit,
  enLimits,
  enPayout,
  enPayoutByAddress,
  enCardPayout,
  enByAddress,
  enBeneficiary,
  enPartner,
  enRefusals,
  enCopy,
  enWalletConnect,
  enIdentityWallet,
  enAmount,
}
const englishKeys = Object.values(parts).flatMap((part) => Object.keys(part))

describe('message catalogs', () => {
  it('no key is in two English parts', () => {
    expect(new Set(englishKeys).size).toBe(englishKeys.length)
  })

  it.each([
    ['es', es],
    ['pt-BR', ptBR],
    ['fr', fr],
    ['de', de],
  ])('%s has every English key, no other, and keeps every {parameter}', (_name, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual([...englishKeys].sort())
    const english = Object.assign({}, ...Object.values(parts)) as Record<string, string>
    for (const [key, text] of Object.entries(catalog)) {
      const params = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort()
      expect(params(text), key).toEqual(params(english[key]))
    }
  })

  it("a flow's English strings arrive with the flow, and a translation still wins over them", async () => {
    expect(t('card.submit')).toBe('card.submit')
    addEnglish(enCard)
    expect(t('card.submit')).toBe(enCard['card.submit'])
    await loadLocale('de')
    expect(t('card.submit')).toBe(de['card.submit'])
    addEnglish(enOnboarding)
    expect(t('onboarding.next')).toBe(de['onboarding.next'])
    await loadLocale('en')
    expect(t('onboarding.next')).toBe(enOnboarding['onboarding.next'])
  })
})
