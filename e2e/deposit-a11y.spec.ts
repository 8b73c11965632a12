import { expect, expectAxeClean, tabTo, test } from './helpers'
import { PROD_ORIGIN, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

test('7. every deposit screen is axe-clean and the flow completes with the keyboard alone', async ({ page, stack }) => {
  const wallet = TestWallet.forStack(stack, 6)
  await wallet.install(page)
  await page.goto(widgetUrl(stack))
  const h1 = page.getByRole('heading', { level: 1 })

  await expect(h1).toHaveText('Connect your wallet')
  await expect(page.getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await expectAxeClean(page, 'wallet list')
  await tabTo(page, page.getByRole('button', { name: 'Test Wallet' }))
  await page.keyboard.press('Enter')

  await expect(h1).toHaveText('How much do you want to deposit?')
  await expect(h1).toBeFocused()
  await expectAxeClean(page, 'amount form')
  const amount = page.getByLabel('Amount')
  await tabTo(page, amount)
  // "12,500" could be twelve and a half or twelve thousand five hundred: asked, never guessed (issue 39, item 12).
  await page.keyboard.type('12,500')
  await page.keyboard.press('Enter')
  await expect(page.getByText(/A decimal mark, or thousands\? Type it without thousands separators/)).toBeVisible()
  await expect(amount).toHaveValue('12,500') // a typo never clears the form
  await expect(amount).toHaveAttribute('aria-describedby', 'amount-error')
  await expectAxeClean(page, 'amount form with an error')
  await amount.focus() // still the same field: the buyer is already there
  await page.keyboard.press('End')
  for (let i = 0; i < 4; i++) await page.keyboard.press('Backspace')
  await page.keyboard.type('.5')
  await page.keyboard.press('Enter')

  await expect(h1).toHaveText('Check your deposit')
  await expect(h1).toBeFocused()
  await expectAxeClean(page, 'quote')
  await tabTo(page, page.getByRole('button', { name: 'Confirm and send' }))
  await page.keyboard.press('Enter')

  await expect(h1).toHaveText('Your deposit is on its way')
  await expectAxeClean(page, 'tracking')
  await expect(h1).toHaveText('Deposit delivered', { timeout: 60_000 })
  await expect(h1).toBeFocused()
  await expectAxeClean(page, 'done')
  await tabTo(page, page.getByRole('button', { name: 'Start a new deposit' }))
  await page.keyboard.press('Enter')
  await expect(h1).toHaveText('How much do you want to deposit?')
  expect(wallet.signatures()).toBe(3) // the wallet check (the kit's sign-in message, once per wallet), approve, deposit
})

test('7b. with no wallet in the browser the buyer is told what to do, axe-clean @extended', async ({ page }) => {
  // The production build (no sandbox wallet in it); this screen makes no API call.
  await page.goto(`${PROD_ORIGIN}/?partner=acme-shop&flow=deposit`)
  await expect(page.getByText('No wallet found in this browser.')).toBeVisible()
  await expect(page.getByText('Sandbox', { exact: true })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Look again' })).toBeVisible()
  await expectAxeClean(page, 'wallet screen without a wallet')
})

test('the sandbox wallet (sandbox mode only) lets a newcomer finish a deposit @extended', async ({ page, stack }) => {
  await page.goto(widgetUrl(stack))
  await expect(page.getByText('Sandbox', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Sandbox wallet' }).click()
  await page.getByLabel('Amount').fill('1.5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
})
