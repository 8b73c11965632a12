// Each flow's happy path on the hosted page, in Firefox ESR and WebKitGTK (the twins of the first
// test of e2e/card.spec.ts, deposit-a11y.spec.ts, onboarding.spec.ts, bank-deposit.spec.ts, payout.spec.ts).
import { cardUrl } from '../e2e/stack'
import { expect, test } from './fixtures'

test('card: quote, the sandbox card page, back, purchase complete', async ({ page, stack }) => {
  const h1 = page.getByRole('heading', { level: 1 })
  await page.goto(cardUrl(stack))
  await expect(h1).toHaveText('How much do you want to pay?')
  await expect(page.getByText('Between 20 and 5,000 EUR per payment.')).toBeVisible()
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(h1).toHaveText('Check your purchase')
  await expect(page.getByRole('row', { name: /You pay/ })).toContainText('50 EUR')
  await expect(page.getByRole('row', { name: /You receive/ })).toContainText('0.01558666 ETH')
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[2])
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(page).toHaveURL(/\/card-page\?id=cp_/)
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page).toHaveURL(/flow=card/)
  await expect(h1).toHaveText('Purchase complete', { timeout: 30_000 })
  await expect(page.getByText('0.01558666 ETH was sent to your wallet.')).toBeVisible()
  expect(await page.errors()).toEqual([])
})
