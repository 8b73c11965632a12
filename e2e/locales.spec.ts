import { expect, test } from '@playwright/test'
import { expectAxeClean } from './helpers'
import { cardUrl, fiatUrl, sandbox, stackConfig } from './stack'

// Every locale's strings, at a phone's width, in both themes: loaded on demand, no horizontal
// scroll at 320 px, and axe-clean.
const headings: Record<string, RegExp> = {
  en: /How much do you want to pay\?/,
  es: /pagar/i,
  'pt-BR': /pagar/i,
  fr: /payer/i,
  de: /zahlen/i,
}

// Each locale in one theme, alternating (both themes are also checked in embed.spec.ts).
for (const [index, locale] of Object.keys(headings).entries()) {
  for (const theme of [index % 2 ? 'dark' : 'light'] as const) {
    test(`${locale}, ${theme}: card and bank screens are translated, fit 320 px and are axe-clean`, async ({ page }) => {
      const stack = stackConfig()
      await sandbox(stack, '/__sandbox/reset', {})
      await page.setViewportSize({ width: 320, height: 800 })
      await page.goto(cardUrl(stack, { locale, theme }))
      const h1 = page.getByRole('heading', { level: 1 })
      await expect(h1).toHaveText(headings[locale])
      await expect(page.locator('.widget')).toHaveAttribute('lang', locale)
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
    })
  }
}
