import { expect, expectAxeClean, test } from './helpers'
import { cardUrl, fiatUrl, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

// Every locale's strings, at a phone's width, in both themes: loaded on demand, no horizontal
// scroll at 320 px, and axe-clean.
const headings: Record<string, RegExp> = {
  en: /How much do you want to pay\?/,
  es: /pagar/i,
  'pt-BR': /pagar/i,
  fr: /payer/i,
  de: /zahlen/i,
}

for (const locale of Object.keys(headings)) {
  for (const theme of ['light', 'dark'] as const) {
    test(`${locale}, ${theme}: deposit, card and bank screens are translated, fit 320 px and are axe-clean${locale === 'de' && theme === 'light' ? '' : ' @extended'}`, async ({
      page,
      stack,
    }) => {
      await page.setViewportSize({ width: 320, height: 800 })
      await page.goto(cardUrl(stack, { locale, theme }))
      const h1 = page.getByRole('heading', { level: 1 })
      await expect(h1).toHaveText(headings[locale])
      await expect(page.locator('.widget')).toHaveAttribute('lang', locale)
      // The card limits fill in when they come (nothing gates the first control): the window is
      // there before a total below it is submitted, so the error below is the limits' one.
      await expect(page.locator('#total-window')).toBeVisible()
      await page.locator('#total').fill('10')
      await page.locator('form button[type=submit]').click()
      await expect(page.locator('#total-error')).toBeVisible() // the longest form: with its window and error
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      await expectAxeClean(page, `card form ${locale} ${theme}`)
      await page.goto(fiatUrl(stack, { locale, theme, walletAddress: stack.accounts[1], authCode: `ac_missing_${locale}_${theme}` }))
      await expect(page.locator('#phone')).toBeVisible()
      await page.locator('form button[type=submit]').click()
      await expect(page.locator('#email-error')).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      await expectAxeClean(page, `bank details form ${locale} ${theme}`)
      // The deposit's amount form with its longest error; the wallet screen before it.
      const wallet = TestWallet.forStack(stack, 1)
      await wallet.install(page)
      await page.goto(widgetUrl(stack, { locale, theme }))
      await expect(page.getByRole('button', { name: 'Test Wallet' })).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      await expectAxeClean(page, `wallet screen ${locale} ${theme}`)
      await page.getByRole('button', { name: 'Test Wallet' }).click()
      const amount = page.locator('input[inputmode=decimal]')
      await amount.fill('1.2.3')
      await page.locator('form button[type=submit]').click()
      await expect(amount).toHaveAttribute('aria-invalid', 'true')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
      await expectAxeClean(page, `deposit amount form ${locale} ${theme}`)
    })
  }
}
