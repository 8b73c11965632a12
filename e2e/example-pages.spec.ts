// Issue 39, item 2: the example partner pages `npm start` prints, as a newcomer meets them, with no
// wallet in the browser. The pages that mount the widget in the partner's own page (script, element,
// markup, csp) offer the sandbox's test wallet, as the hosted page does, so a deposit and a payout
// finish there (a production build has none: test/size/noSandbox.test.ts, deposit-a11y's 7b).
import type { Page } from '@playwright/test'
import { expect, fillDetails, test } from './helpers'
import type { StackConfig } from './stack'

const h1 = (page: Page) => page.locator('#widget').getByRole('heading', { level: 1 })
const example = (stack: StackConfig, mode: string, query: Record<string, string> = {}) => `${stack.apiBase}/examples/${mode}.html?${new URLSearchParams(query)}`

for (const mode of ['script', 'element', 'markup', 'csp']) {
  test(`${mode} page: with no wallet in the browser, the sandbox's test wallet is offered${mode === 'script' ? '' : ' @extended'}`, async ({ page, stack }) => {
    await page.goto(example(stack, mode))
    await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sandbox wallet' })).toBeVisible()
    await expect(page.getByText('No wallet found in this browser.')).toHaveCount(0)
  })
}

test('csp page: a deposit finishes with the sandbox wallet, under the strict CSP @extended', async ({ page, stack }) => {
  const refused: string[] = []
  page.on('console', (m) => m.type() === 'error' && refused.push(m.text()))
  await page.goto(example(stack, 'csp'))
  await page.getByRole('button', { name: 'Sandbox wallet' }).click()
  await page.getByLabel('Amount').fill('1.5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(refused).toEqual([])
})

test("the Payments page's cash-out link: a payout finishes with the sandbox wallet, identity included @extended", async ({ page, context, stack }) => {
  await page.goto(`${stack.apiBase}/examples/payments.html?user=alice`)
  const [shop] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'cash out to a bank' }).click()])
  // The heading names where the money lands once the currency's rails are known (issue 39, item 17).
  await expect(h1(shop)).toHaveText(/^Cash out/)
  // The page's browser says en-US: the form starts on a route for the US; this payout goes to Germany in euros.
  // Once the routes are in (the rails' line shows), so the defaults they bring are set.
  await expect(shop.getByText(/usually/).first()).toBeVisible()
  await shop.locator('#payout-currency').selectOption('EUR')
  await expect(shop.locator('#payout-currency')).toHaveValue('EUR')
  await shop.locator('#payout-amount').fill('20')
  await shop.locator('#payout-country').selectOption('DE')
  await shop.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(shop)).toHaveText('Check your cash-out')
  await shop.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(shop)).toHaveText('Connect the wallet that pays')
  await shop.getByRole('button', { name: 'Sandbox wallet' }).click()
  // A buyer the service does not know yet (the sandbox wallet may be known from an earlier payout).
  const verify = shop.getByRole('link', { name: 'Verify with our identity partner' })
  const who = shop.getByRole('heading', { level: 1, name: 'Who receives the money?' })
  await expect(verify.or(who)).toBeVisible()
  if (await verify.isVisible()) {
    await verify.click()
    await shop.getByRole('button', { name: 'Verify my identity' }).click()
    // Back on the partner's page, which hands the widget the identity provider's code.
    await expect(shop).toHaveURL(/\/examples\/script\.html\?/)
    await expect(h1(shop)).toHaveText('Your details')
    await fillDetails(shop)
    await shop.getByRole('button', { name: 'Continue' }).click()
  }
  await expect(who).toBeVisible()
  await shop.getByLabel('Account holder name').fill('Ada Lovelace')
  await shop.getByLabel('First name').fill('Ada')
  await shop.getByLabel('Last name').fill('Lovelace')
  await shop.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
  await shop.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(shop)).toHaveText('Send the stablecoins')
  const send = shop.getByRole('button', { name: /^Send [\d.]+ USDC$/ })
  const choose = shop.getByRole('button', { name: 'Sandbox wallet' })
  // Connected again after the identity provider's round trip reloaded the page.
  await expect(send.or(choose)).toBeVisible()
  if (await choose.isVisible()) await choose.click()
  await send.click()
  await expect(h1(shop)).toHaveText('Paid out', { timeout: 30_000 })
})
