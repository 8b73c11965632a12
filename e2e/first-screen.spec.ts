// The first screen drawn from the page's HTML (issue 19, src/embed/firstPaint.mjs), in Chromium under
// the build's real CSP: it is the app's own first screen (same words, same places), it works with
// the keyboard before any module has run, and the app carries out what the buyer did there.
import type { Page, Route } from '@playwright/test'
import { expect, expectAxeClean, test } from './helpers'
import { PROD_ORIGIN, type StackConfig, cardUrl, fiatUrl, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

/** Holds every module of the page until `release()`: what the buyer has before the app arrives. */
async function holdModules(page: Page, except?: RegExp) {
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route(/\/assets\/.*\.js$/, async (route: Route) => {
    if (!except?.test(route.request().url())) await held
    await route.continue()
  })
  return () => release()
}

const drawn = (page: Page) => page.locator('[data-first-screen]')
const violations: string[] = []

test.beforeEach(({ page }) => {
  violations.length = 0
  page.on('console', (m) => /Content Security Policy|Refused to/.test(m.text()) && violations.push(m.text()))
})

/** Each visible element's words and box, in document order: what the buyer sees, and where. */
async function layout(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('#app :is(h1, label, button, input, select, p, span)')]
      .filter((el) => el.offsetParent !== null)
      .map((el) => {
        const r = el.getBoundingClientRect()
        return `${el.tagName} ${el.id} ${el.tagName === 'P' && el.id === 'total-window' ? '' : el.innerText.trim()} @${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`
      }),
  )
}

const flows: Array<[string, (s: StackConfig) => string, string]> = [
  ['card', (s) => cardUrl(s), 'See what you get'],
  ['card (dark, two currencies)', (s) => cardUrl(s, { theme: 'dark', currencies: 'USD,MXN' }), 'See what you get'],
  ['card (one currency)', (s) => cardUrl(s, { currencies: 'GBP' }), 'See what you get'],
  ['onboarding', (s) => fiatUrl(s), 'Continue'],
  ['deposit', (s) => widgetUrl(s), 'Look again'],
]

for (const [flow, url, control] of flows) {
  test(`${flow}: the page draws the app's first screen before any module runs, in the same places, axe-clean${flow === 'card' ? '' : ' @extended'}`, async ({
    page,
    stack,
  }) => {
    const release = await holdModules(page)
    await page.goto(url(stack), { waitUntil: 'commit' })
    await expect(drawn(page).getByRole('button', { name: control })).toBeEnabled()
    await expectAxeClean(page, `${flow}: drawn first screen`)
    const before = await layout(page)
    release()
    await expect(drawn(page)).toHaveCount(0)
    // The app's own screen: the deposit's then lists the sandbox wallet the app announces; the bank
    // flows' wallet step offers the page's wallets below its form, so all above them stays in place.
    await expect(page.getByRole('button', { name: control })).toBeVisible()
    await expect(page.getByText('Step 1 of 4')).toBeVisible()
    const after = await layout(page)
    const kept = flow === 'deposit' ? 4 : flow === 'onboarding' ? before.findIndex((e) => e.startsWith('BUTTON  Continue')) + 1 : before.length
    expect(kept).toBeGreaterThan(0)
    expect(after.slice(0, kept)).toEqual(before.slice(0, kept))
    expect(violations).toEqual([])
  })
}

test('card: typed and sent with the keyboard before the app arrives, the app quotes that amount @extended', async ({ page, stack }) => {
  const release = await holdModules(page)
  await page.goto(cardUrl(stack), { waitUntil: 'commit' })
  // The page has drawn the screen (goto returns as the response begins, before it is parsed).
  await expect(drawn(page).getByRole('button', { name: 'See what you get' })).toBeEnabled()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(drawn(page).getByLabel('Total to pay')).toBeFocused()
  await page.keyboard.type('50')
  await page.keyboard.press('Enter')
  await expect(drawn(page).getByRole('status')).toHaveText('Loading…')
  release()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your purchase')
  await expect(page.getByText('50 EUR', { exact: true })).toBeVisible()
  expect(violations).toEqual([])
})

test('onboarding: an address typed before the app arrives is kept, with the focus and the caret, and the app goes on from there @extended', async ({
  page,
  stack,
}) => {
  const release = await holdModules(page)
  await page.goto(fiatUrl(stack), { waitUntil: 'commit' })
  const field = drawn(page).getByLabel('Wallet address')
  await field.fill(stack.accounts[3])
  await field.evaluate((el: HTMLInputElement) => el.setSelectionRange(5, 5))
  release()
  await expect(drawn(page)).toHaveCount(0)
  const real = page.getByLabel('Wallet address')
  await expect(real).toHaveValue(stack.accounts[3])
  await expect(real).toBeFocused()
  expect(await real.evaluate((el: HTMLInputElement) => el.selectionStart)).toBe(5)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your identity')
})

test('deposit: a browser wallet listed and chosen before the app arrives is the one the app connects @extended', async ({ page, stack }) => {
  const wallet = TestWallet.forStack(stack, 4)
  await wallet.install(page)
  const release = await holdModules(page)
  await page.goto(widgetUrl(stack), { waitUntil: 'commit' })
  const choice = drawn(page).getByRole('button', { name: 'Test Wallet' })
  await choice.click()
  await expect(drawn(page).getByRole('status')).toHaveText('Loading…')
  release()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('How much do you want to deposit?')
  expect(wallet.requests.map((r) => r.method)).toContain('eth_requestAccounts')
})

test('a link the drawn screen does not fit (an amount, another locale) draws nothing before the app @extended', async ({ page, stack }) => {
  for (const extra of [{ amount: '25' }, { locale: 'de' }] as Array<Record<string, string>>) {
    const release = await holdModules(page)
    await page.goto(cardUrl(stack, extra), { waitUntil: 'commit' })
    // The page's scripts have run once the last of them is parsed (the modules are held).
    await page.waitForFunction(() => [...document.scripts].some((s) => !s.src && s.textContent?.includes('sw-first')))
    await expect(page.locator('#app')).toBeEmpty()
    release()
    await expect(page.locator('#app form')).toBeVisible()
    await page.unroute(/\/assets\/.*\.js$/)
  }
})

test('a changed link: the drawn form goes, and the app says the link does not work', async ({ page, stack }) => {
  const url = cardUrl(stack).replace(/signature=[^&]+/, 'signature=AAAA')
  await page.goto(url)
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('How much do you want to pay?')
  await expect(page.locator('[data-first-screen]')).toHaveCount(0)
  await expect(page.getByLabel('Total to pay')).toHaveCount(0)
})

test('a production page draws the first screen with no sandbox badge', async ({ page }) => {
  const release = await holdModules(page)
  await page.goto(`${PROD_ORIGIN}/?partner=acme-shop&flow=deposit`, { waitUntil: 'commit' })
  await expect(drawn(page).getByRole('heading', { level: 1 })).toHaveText('Connect your wallet')
  await expect(drawn(page).getByText('Sandbox')).toHaveCount(0)
  release()
})

test("iframe: the frame draws the card's first screen before its modules arrive; what is typed there is quoted by the app, and the parent hears the events @extended", async ({
  page,
  stack,
}) => {
  // iframe() makes its frame once the script-tag runtime has arrived (checked against its hash):
  // the runtime comes, the frame's own modules are held.
  const release = await holdModules(page, /\/assets\/runtime-[\w-]+\.js$/)
  await page.goto(`${stack.apiBase}/examples/iframe.html?flow=card`, { waitUntil: 'commit' })
  const frame = page.frameLocator('#widget iframe')
  const field = frame.locator('[data-first-screen]').getByLabel('Total to pay')
  await field.fill('60')
  await field.press('Enter')
  await expect(frame.locator('[data-first-screen]').getByRole('status')).toHaveText('Loading…')
  release()
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Check your purchase')
  await expect(frame.getByText('60 EUR', { exact: true })).toBeVisible()
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { widgetEvents: Array<{ name: string }> }).widgetEvents.map((e) => e.name)))
    .toContain('quote')
})
