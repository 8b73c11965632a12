import type { Page } from '@playwright/test'
import { expect, expectNothing, quietSpan, test } from './helpers'
import { type StackConfig, stackConfig } from './stack'
import { openDeposit } from './testWallet'

// Wallet trouble is part of the flow: each case ends on a screen that says what to do.
let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})

const open = (page: Page, account: number) => openDeposit(page, stack, account)

async function quote(page: Page, amount: string) {
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
}

test('a balance too low for the amount is said before anything is sent @extended', async ({ page }) => {
  const wallet = await open(page, 0) // the deployer holds no test USDC
  await quote(page, '12')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText('Your balance is 0 USDC, less than the 12 USDC this deposit needs.')).toBeVisible()
  expect(wallet.signatures()).toBe(0)
  await expect(page.getByRole('button', { name: 'Confirm and send' })).toBeEnabled()
})

test('an amount over what the wallet holds is said as such, not as "no route" (issue 39, item 12)', async ({ page }) => {
  await open(page, 0) // the deployer holds no test USDC; the sandbox routes nothing over 500,000
  await page.getByLabel('Amount').fill('600000')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText(/Your wallet holds 0 USDC, less than this amount/)).toBeVisible()
  await expect(page.getByText(/No route|usually temporary/)).toHaveCount(0)
  await expect(page.getByLabel('Amount')).toHaveValue('600000')
})

test('"request already pending" (-32002) tells the buyer to open the wallet, nothing lost @extended', async ({ page }) => {
  const wallet = await open(page, 7)
  await quote(page, '2')
  wallet.rejectNext('eth_sendTransaction', -32002, 'Request of type eth_sendTransaction already pending')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText('Your wallet already has a request waiting. Open your wallet to answer it.')).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
})

test('no_route is said plainly, keeps the amount, and is not retried on its own @extended', async ({ page, sandbox: sb }) => {
  await open(page, 7)
  await page.getByLabel('Amount').fill('600000')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText(/No route can carry this deposit right now/)).toBeVisible()
  await expect(page.getByLabel('Amount')).toHaveValue('600000')
  // Not retried on its own: one quote, and none more over three of the build's backoff bases.
  expect(await sb.posts('/deposit/quote')).toHaveLength(1)
  await expectNothing(async () => (await sb.posts('/deposit/quote')).slice(1), await quietSpan(sb, 'backoffBaseMs'), 'quotes after no_route')
})
