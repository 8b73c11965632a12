import AxeBuilder from '@axe-core/playwright'
import { type Locator, type Page, expect } from '@playwright/test'

/** axe with the WCAG 2.2 A/AA rules; no violations allowed. */
export async function expectAxeClean(page: Page, screen: string) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  const summary = result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(summary, `axe violations on ${screen}`).toEqual([])
}

/** Moves focus with Tab only (no clicks) until `target` has it. */
export async function tabTo(page: Page, target: Locator, maxTabs = 40) {
  for (let i = 0; i < maxTabs; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`could not reach ${target} with the keyboard`)
}

export async function heading(page: Page) {
  return page.getByRole('heading', { level: 1 })
}

/** Fakes the page being hidden / shown, the way a tab switch does. */
export async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') })
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h })
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
  }, hidden)
}

/** The bank flow's details form, filled as a buyer would (overrides per field). */
export async function fillDetails(page: Page, overrides: Partial<Record<string, string>> = {}) {
  const v = { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+49 151 2345 6789', nationality: 'DE', country: 'DE', ...overrides }
  await page.getByLabel('Full name').fill(v.name)
  await page.getByLabel('Email').fill(v.email)
  await page.getByLabel('Mobile phone').fill(v.phone)
  await page.getByLabel('Nationality').selectOption(v.nationality)
  await page.getByLabel('Country of residence').selectOption(v.country)
}
