// Every way in, on the example partner pages (served from the sandbox's origin, not the widget's):
// the handshake of each mode in Firefox ESR and WebKitGTK. Twins of e2e/embed.spec.ts.
import type { StackConfig } from '../e2e/stack'
import type { Locator, XPage } from './driver'
import { expect, test } from './fixtures'

const partner = (stack: StackConfig, mode: string, query: Record<string, string> = {}) => `${stack.apiBase}/examples/${mode}.html?${new URLSearchParams(query)}`
/** The names of the events the partner page heard (examples/partner.js records them). */
const heard = (page: XPage) => page.evaluate(() => (window as unknown as { widgetEvents: Array<{ name: string }> }).widgetEvents.map((e) => e.name))
const update = (page: XPage, options: object) => page.evaluate((o) => (window as unknown as { widget: { update(o: object): void } }).widget.update(o), options)

/** A card quote in the widget (`root`): the quote screen, and the partner page hears the quote. */
async function quote(page: XPage, root: XPage | Locator, amount: string) {
  await root.getByLabel('Total to pay').fill(amount)
  await root.getByRole('button', { name: 'See what you get' }).click()
  await expect(root.getByRole('heading', { name: 'Check your purchase' })).toBeVisible()
  await expect.poll(() => heard(page)).toContain('quote')
}

test('script tag: the widget mounts in a shadow root, says ready, obeys update and quotes', { tag: ['@npm:firefox'] }, async ({ page, stack }) => {
  await page.goto(partner(stack, 'script', { flow: 'card' }))
  const widget = page.locator('#widget')
  await expect(widget.getByLabel('Total to pay')).toBeVisible()
  expect(await widget.evaluate((el) => !!el.shadowRoot)).toBe(true)
  await expect.poll(() => heard(page)).toContain('ready')
  await update(page, { amount: '75' })
  await expect(widget.getByLabel('Total to pay')).toHaveValue('75')
  await quote(page, widget, '60')
  expect(await page.errors()).toEqual([])
})

test('markup: a <div data-stablecoin-widget> mounts by itself and its events are DOM events', async ({ page, stack }) => {
  await page.goto(partner(stack, 'markup', { flow: 'card' }))
  const host = page.locator('#widget [data-stablecoin-widget]')
  await expect(host.getByLabel('Total to pay')).toBeVisible()
  expect(await host.evaluate((el) => !!el.shadowRoot)).toBe(true)
  await expect.poll(() => heard(page)).toContain('ready')
  await quote(page, host, '60')
  expect(await page.errors()).toEqual([])
})

test('custom element: <stablecoin-widget> mounts, follows its attributes live and quotes', { tag: ['@npm:webkit'] }, async ({ page, stack }) => {
  await page.goto(partner(stack, 'element', { flow: 'card' }))
  const el = page.locator('stablecoin-widget')
  await expect(el.getByLabel('Total to pay')).toBeVisible()
  await expect.poll(() => heard(page)).toContain('ready')
  await el.evaluate((node) => {
    node.setAttribute('amount', '42')
    node.setAttribute('theme', 'dark')
  })
  await expect(el.getByLabel('Total to pay')).toHaveValue('42')
  await expect(el.locator('.widget')).toHaveAttribute('data-theme', 'dark')
  await quote(page, el, '60')
  expect(await page.errors()).toEqual([])
})

test('iframe(): the frame says hello, is sized to its content, obeys update and its events reach the page', { tag: ['@npm:firefox'] }, async ({
  page,
  stack,
}) => {
  await page.goto(partner(stack, 'iframe', { flow: 'card' }))
  const frame = page.frameLocator('#widget iframe')
  await expect(frame.getByLabel('Total to pay')).toBeVisible()
  const iframe = page.locator('#widget iframe')
  await expect(iframe).toHaveAttribute('allow', /payment/)
  await expect(iframe).toHaveAttribute('title', 'Payment widget')
  // Sized by the frame's resize messages (the partner's CSS says 480px until then).
  await expect.poll(() => iframe.evaluate((f) => (f as HTMLIFrameElement).style.height)).toMatch(/^\d+px$/)
  await expect.poll(() => heard(page)).toContain('ready')
  await update(page, { amount: '75' })
  await expect(frame.getByLabel('Total to pay')).toHaveValue('75')
  await quote(page, frame, '60')
  expect(await page.errors()).toEqual([])
})

test('declared iframe: the loader adopts the frame of the page (size, events) and a quote is heard', { tag: ['@npm:firefox'] }, async ({ page, stack }) => {
  await page.goto(partner(stack, 'frame', { flow: 'card' }))
  const iframe = page.locator('#widget iframe[data-stablecoin-widget]')
  const frame = page.frameLocator('#widget iframe[data-stablecoin-widget]')
  await expect(frame.getByLabel('Total to pay')).toBeVisible()
  await expect.poll(() => iframe.evaluate((f) => (f as HTMLIFrameElement).style.height)).toMatch(/^\d+px$/)
  await expect.poll(() => heard(page)).toContain('ready')
  await quote(page, frame, '60')
  expect(await page.errors()).toEqual([])
})

test("strict CSP: the script tag runs under script-src and style-src 'self', its styles applied, and quotes", async ({ page, stack }) => {
  await page.goto(partner(stack, 'csp', { flow: 'card' }))
  const widget = page.locator('#widget')
  await expect(widget.getByLabel('Total to pay')).toBeVisible()
  // The widget's own stylesheet (adopted by its shadow root) reached it: its h1 is 1.35rem.
  expect(await widget.getByRole('heading', { level: 1 }).evaluate((h) => getComputedStyle(h).fontSize)).toBe('21.6px')
  await quote(page, widget, '60')
  expect(await page.errors()).toEqual([])
})

test('hosted: the partner links to the full page, a deposit completes there, and the buyer returns', async ({ page, stack }) => {
  await page.goto(partner(stack, 'hosted'))
  await page.getByRole('link', { name: 'Pay with stablecoins' }).click()
  await expect(page.getByRole('heading', { name: 'Connect your wallet', level: 1 })).toBeVisible()
  expect(new URL(await page.url()).origin).not.toBe(new URL(stack.apiBase).origin)
  await page.getByRole('button', { name: 'Sandbox wallet' }).click()
  await page.getByLabel('Amount').fill('1.5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  await page.getByRole('link', { name: 'Return to the site' }).click()
  await expect(page).toHaveURL(/examples\/hosted\.html\?.*returned=1/)
  await expect(page.locator('#log')).toContainText('Back from the hosted page')
})
