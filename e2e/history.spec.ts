import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { type StackConfig, cardUrl, stackConfig } from './stack'

// The browser's Back inside the widget: one screen back in the hosted page, by the screen's own Back
// (what was typed stays, nothing is sent); a partner's page keeps its history unless it opts in.
let stack: StackConfig
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
test.beforeAll(() => {
  stack = stackConfig()
})

async function toQuote(root: Page | ReturnType<Page['locator']>, page: Page, amount: string) {
  await root.getByLabel('Total to pay').fill(amount)
  await root.getByRole('button', { name: 'See what you get' }).click()
  await expect(root.getByRole('heading', { name: 'Check your purchase' })).toBeVisible()
  void page
}

test("hosted page: the browser's Back is the widget's Back, the amount stays, and Back again leaves @extended", async ({ page }) => {
  const before = `${stack.apiBase}/examples/partner.html`
  await page.goto(before)
  await page.goto(cardUrl(stack))
  const url = page.url()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await toQuote(page, page, '50')
  await page.goBack()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect(page.getByLabel('Total to pay')).toHaveValue('50')
  expect(page.url()).toBe(url)
  // Forward onto the widget's entry: still the form, nothing lost.
  await page.goForward()
  await expect(page.getByLabel('Total to pay')).toHaveValue('50')
  await page.goBack()
  await expect(page.getByLabel('Total to pay')).toHaveValue('50')
  // Through the steps again: the quote, Back, the quote.
  await toQuote(page, page, '60')
  await page.goBack()
  await expect(page.getByLabel('Total to pay')).toHaveValue('60')
  // On the first screen there is nothing to go back to inside the widget: Back leaves, as always.
  await page.goBack()
  await expect(page).toHaveURL(before)
})

test("a partner's page keeps its own history unless it opts in @extended", async ({ page }) => {
  const partner = (query: Record<string, string>) => `${stack.apiBase}/examples/script.html?${new URLSearchParams(query)}`
  await page.goto(partner({ flow: 'card', amount: '50' }))
  const widget = page.locator('#widget')
  await expect(widget.getByLabel('Total to pay')).toBeVisible()
  const length = await page.evaluate(() => history.length)
  await toQuote(widget, page, '50')
  expect(await page.evaluate(() => history.length)).toBe(length)

  // The partner opts in: mount({ history: true }).
  await page.evaluate(() => {
    const w = window as unknown as { widget: { unmount(): void }; StablecoinWidget: { mount(el: Element, o: object): unknown } }
    w.widget.unmount()
    const config = JSON.parse(document.querySelector('meta[name="widget-config"]')!.getAttribute('content')!)
    w.StablecoinWidget.mount(document.getElementById('widget')!, { ...config, history: true })
  })
  await toQuote(widget, page, '70')
  expect(await page.evaluate(() => history.length)).toBe(length + 1)
  await page.goBack()
  await expect(widget.getByLabel('Total to pay')).toHaveValue('70')
  await expect(widget.getByRole('button', { name: 'See what you get' })).toBeVisible()
})
