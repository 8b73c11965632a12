// Each flow's happy path on the hosted page, in Firefox ESR and WebKitGTK: the twins of the first
// test of e2e/card.spec.ts, deposit-a11y.spec.ts (the sandbox wallet), onboarding.spec.ts,
// bank-deposit.spec.ts and payout.spec.ts.
import { fillDetails, sharedSteps } from '../e2e/helpers'
import { SANDBOX_ORIGIN, type StackConfig, sandbox as callSandbox, cardUrl, destBalance, fiatUrl, widgetUrl } from '../e2e/stack'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import type { Locator, XPage } from './driver'
import { expect, test } from './fixtures'

const h1 = (page: XPage) => page.getByRole('heading', { level: 1 })
const { walletToProvider, detailsAfterProvider, fillSepa } = sharedSteps<Locator>(expect)
const link = (stack: StackConfig, flow: string): string => demoUrl(stack, `${SANDBOX_ORIGIN}/`, flow)
// The sandbox build's own wallet (src/wallet/sandboxWallet.ts): anvil's dev account 9.
const SANDBOX_WALLET = 9

test('card: quote, the sandbox card page, back, purchase complete', { tag: ['@npm:firefox', '@npm:webkit'] }, async ({ page, stack }) => {
  await page.goto(cardUrl(stack))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect(page.getByText('Between 20 and 5,000 EUR per payment.')).toBeVisible()
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(h1(page)).toHaveText('Check your purchase')
  await expect(page.getByRole('row', { name: /You pay/ })).toContainText('50 EUR')
  await expect(page.getByRole('row', { name: /You receive/ })).toContainText('0.01558666 ETH')
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[2])
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(page).toHaveURL(/\/card-page\?id=cp_/)
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page).toHaveURL(/flow=card/)
  await expect(h1(page)).toHaveText('Purchase complete', { timeout: 30_000 })
  await expect(page.getByText('0.01558666 ETH was sent to your wallet.')).toBeVisible()
  expect(await page.errors()).toEqual([])
})

test('deposit: the sandbox wallet pays, the deposit is delivered and the balance grows', { tag: ['@npm:webkit'] }, async ({ page, stack }) => {
  const before = await destBalance(stack, stack.accounts[SANDBOX_WALLET])
  await page.goto(widgetUrl(stack))
  await expect(page.getByText('Sandbox', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Sandbox wallet' }).click()
  await expect(h1(page)).toHaveText('How much do you want to deposit?')
  await page.getByLabel('Amount').fill('1.5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your deposit')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  const grown = (await destBalance(stack, stack.accounts[SANDBOX_WALLET])) - before
  expect(grown).toBeGreaterThan(1_400_000n)
  expect(grown).toBeLessThanOrEqual(1_500_000n)
  expect(await page.errors()).toEqual([])
})

test('deposit in German: the locked amount 25.50 shows as 25,50, is quoted and delivered as 25.5', async ({ page, stack }) => {
  const before = await destBalance(stack, stack.accounts[SANDBOX_WALLET])
  await page.goto(widgetUrl(stack, { amount: '25.50', locale: 'de', lockAmount: '1' }))
  await page.getByRole('button', { name: /Sandbox/ }).click()
  await expect(page.getByLabel('Betrag')).toHaveValue('25,50')
  await page.getByRole('button', { name: 'Preis anzeigen' }).click()
  await expect(h1(page)).toHaveText('Einzahlung prüfen')
  await page.getByRole('button', { name: 'Bestätigen und senden' }).click()
  await expect(h1(page)).toHaveText('Einzahlung zugestellt', { timeout: 60_000 })
  const grown = (await destBalance(stack, stack.accounts[SANDBOX_WALLET])) - before
  expect(grown).toBeGreaterThan(25_000_000n)
  expect(grown).toBeLessThanOrEqual(25_500_000n)
})

/** The wallet, the sandbox identity provider and back: the details form is next. */
async function throughIdentity(page: XPage, url: string, wallet: string) {
  await page.goto(url)
  await walletToProvider(page, wallet)
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1(page)).toHaveText('Your details')
  await fillDetails(page)
}

test('virtual account: identity, details, the bank details, then the money arrives', async ({ page, stack, sandbox }) => {
  await throughIdentity(page, fiatUrl(stack), stack.accounts[4])
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  await expect(page.getByText(/^DE\d\d \d{4} \d{4} \d{4} \d{4} \d{2}$/)).toBeVisible()
  await expect(page.getByRole('definition').filter({ hasText: /^SBX-/ })).toHaveCount(1)
  await page.getByRole('button', { name: 'Copy Payment reference' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Payment reference copied' })).toBeVisible()
  await sandbox.fundLastAccount('99.5')
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 40_000 })
  await expect(page.getByText('Your transfer of 99.5 arrived. Less the 1% fee, it is converted and sent to your wallet as stablecoins.')).toBeVisible()
  expect(await page.errors()).toEqual([])
})

test('one-off bank deposit: the amount, the bank details, the transfer, settled', async ({ page, stack }) => {
  await throughIdentity(page, link(stack, 'bankDeposit'), stack.accounts[5])
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect(page.getByLabel('Country of your bank account')).toHaveValue('DE')
  await page.getByLabel('Amount you send').fill('120.00')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  await expect(page.getByText(/^DE\d\d \d{4} \d{4} \d{4} \d{4} \d{2}$/)).toBeVisible()
  // The buyer's bank sends the transfer (the sandbox's bank stand-in).
  const deposits = (await callSandbox(stack, '/__sandbox/bank/deposits')) as Array<{ id: string }>
  await callSandbox(stack, '/__sandbox/bank/deposit/transfer', { id: deposits.at(-1)!.id })
  await expect(h1(page)).toHaveText('Your payment is complete', { timeout: 30_000 })
  await expect(page.getByText(/Settlement transaction: 0x/)).toBeVisible()
  expect(await page.errors()).toEqual([])
})

/** A cash-out's form filled: priced, the sandbox wallet connected, and the identity steps with it (a full navigation to the provider and back). */
async function pricedThenVerified(page: XPage) {
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(page)).toHaveText('Connect the wallet that pays')
  await page.getByRole('button', { name: 'Sandbox wallet' }).click()
  await expect(h1(page)).toHaveText('Verify your identity')
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await expect(page.getByRole('heading', { name: 'Sandbox identity provider' })).toBeVisible()
  await detailsAfterProvider(page)
}

test('payout: price first, the sandbox wallet connected, identity, beneficiary, funded, paid out', async ({ page, stack }) => {
  await page.goto(link(stack, 'payout'))
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  await page.getByLabel('Arrives in the bank', { exact: true }).fill('20')
  await page.getByLabel('Country of the bank').selectOption('DE')
  await pricedThenVerified(page)
  await fillSepa(page)
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  // The wallet connected at the start is found again: the buyer is not asked to pick it.
  await page.getByRole('button', { name: /^Send [\d.]+ USDC$/ }).click()
  await expect(h1(page)).toHaveText('Paid out', { timeout: 30_000 })
  await expect(page.getByText(/20 EUR was paid out/)).toBeVisible()
  expect(await page.errors()).toEqual([])
})

test('card payout: price first, the sandbox wallet, identity, the sandbox card page and back, funded, paid to the card', async ({ page, stack }) => {
  await page.goto(link(stack, 'cardPayout'))
  await expect(h1(page)).toHaveText('Cash out to a card')
  await page.getByLabel('Lands on the card', { exact: true }).fill('20')
  await pricedThenVerified(page)
  await expect(h1(page)).toHaveText('The card that receives the money')
  await page.getByRole('button', { name: 'Enter the card on the secure page' }).click()
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  await page.getByRole('button', { name: 'Use this card' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  // The wallet connected at the start is found again: the buyer is not asked to pick it.
  await page.getByRole('button', { name: /^Send [\d.]+ USDC$/ }).click()
  await expect(h1(page)).toHaveText('Paid to the card', { timeout: 45_000 })
  expect(await page.errors()).toEqual([])
})
