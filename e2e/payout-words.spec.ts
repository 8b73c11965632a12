import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { expect, expectAxeClean, fillDetails, fillSepa, test } from './helpers'
import { SANDBOX_ORIGIN, type StackConfig, sandbox } from './stack'
import { TestWallet } from './testWallet'

// Issue 39: every sentence the payout says is true, on unsigned links as on signed ones (buyer
// options may come from any link: docs/options.md).
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const open = (page: Page, stack: StackConfig, sign: boolean, extra: Record<string, string> = {}) =>
  page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', { currencies: 'EUR,USD,GBP,KES,NGN', ...extra }, { sign }))

/** The `error` events the widget sends the embedding page, from every page of this tab. */
async function listenErrors(page: Page) {
  const errors: Array<Record<string, unknown>> = []
  await page.exposeFunction('__payoutError', (p: Record<string, unknown>) => errors.push(p))
  await page.addInitScript(() =>
    window.addEventListener('stablecoin-widget', (e) => {
      const d = (e as CustomEvent<{ name?: string; payload?: unknown }>).detail
      if (d?.name === 'error') (window as unknown as { __payoutError(p: unknown): void }).__payoutError(d.payload)
    }),
  )
  return errors
}

async function price(page: Page, amount = '20') {
  await page.getByLabel('Arrives in the bank', { exact: true }).fill(amount)
  await page.getByLabel('Country of the bank').selectOption('DE')
  await page.getByRole('button', { name: 'See the price' }).click()
}

// Item 22: a key without the endpoint's permission (403 permission_denied).
for (const sign of [false, true]) {
  test(`a shop whose key lacks bank-payouts: the buyer reads that this shop does not offer it here, the error event names the permission (${sign ? 'signed' : 'unsigned'} link) @extended`, async ({
    page,
    stack,
  }) => {
    const errors = await listenErrors(page)
    await sandbox(stack, '/__sandbox/control', { keyPermissions: ['bank', 'card-payouts', 'virtual-accounts'] })
    await open(page, stack, sign)
    await expect(h1(page)).toHaveText('Cash out to a bank account')
    await price(page)
    await expect(page.getByText('This shop does not offer this here. Nothing was started or sent. Choose another option, or ask the shop.')).toBeVisible()
    await expect(page.getByText('Code: permission_denied')).toBeVisible()
    await expect(h1(page)).toHaveText('Cash out to a bank account')
    await expect
      .poll(() => errors)
      .toContainEqual(expect.objectContaining({ flow: 'payout', code: 'permission_denied', detail: 'missing permission: bank-payouts (/bank/payout/quote)' }))
    await expectAxeClean(page, 'permission denied')
  })
}

// docs/assumptions.md: a payout by a user whose identity check is pending or rejected is 400 KYC_PENDING / KYC_REJECTED.
for (const [status, words] of [
  ['pending', 'Your identity check is still running, so this cannot go ahead yet. Nothing was created or sent. Try again in a few minutes.'],
  ['rejected', 'Your identity check was not approved, so this cannot go ahead. Nothing was created or sent. Ask the site you came from how to verify again.'],
] as const) {
  test(`a new buyer whose identity check is ${status} reads it in true words when creating the payout (unsigned link) @extended`, async ({ page, stack }) => {
    const wallet = TestWallet.forStack(stack, 6)
    await wallet.install(page)
    const errors = await listenErrors(page)
    await open(page, stack, false)
    await price(page)
    await expect(h1(page)).toHaveText('Check your cash-out')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Test Wallet' }).click()
    await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
    await page.getByRole('button', { name: 'Verify my identity' }).click()
    await expect(h1(page)).toHaveText('Your details')
    await fillDetails(page, { name: `Ada ${status[0].toUpperCase()}${status.slice(1)}` })
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(h1(page)).toHaveText('Who receives the money?')
    await page.getByLabel('Account holder name').fill('Ada Lovelace')
    await page.getByLabel('First name').fill('Ada')
    await page.getByLabel('Last name').fill('Lovelace')
    await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00')
    await page.getByRole('button', { name: 'Create the payout' }).click()
    await expect(page.getByText(words)).toBeVisible()
    await expect(page.getByText(`Code: KYC_${status.toUpperCase()}`)).toBeVisible()
    await expect.poll(() => errors).toContainEqual(expect.objectContaining({ flow: 'payout', code: `KYC_${status.toUpperCase()}`, message: words }))
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toEqual([])
  })
}

// Item 7: the total is known on the first screen and a reload never changes it.
test('the step counter: eight screens for a new buyer from the first one on, the same after reloads (unsigned link) @extended', async ({ page, stack }) => {
  const wallet = TestWallet.forStack(stack, 7)
  await wallet.install(page)
  await open(page, stack, false)
  const counter = page.getByText(/^Step \d of \d$/)
  await expect(counter).toHaveText('Step 1 of 8')
  await price(page)
  await expect(h1(page)).toHaveText('Check your cash-out')
  await expect(counter).toHaveText('Step 2 of 8')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(counter).toHaveText('Step 3 of 8')
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await expect(h1(page)).toHaveText('Verify your identity')
  await expect(counter).toHaveText('Step 4 of 8')
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1(page)).toHaveText('Your details')
  await expect(counter).toHaveText('Step 5 of 8')
  await fillDetails(page)
  await page.getByRole('button', { name: 'Continue' }).click()
  await fillSepa(page)
  await expect(counter).toHaveText('Step 6 of 8')
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  await expect(counter).toHaveText('Step 7 of 8')
  // The buyer is known now: a reload resumes the payout, and its total stays.
  await page.reload()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  await expect(counter).toHaveText('Step 7 of 8')
  // The wallet connected before is found again (eth_accounts, no prompt): the buyer is not asked to pick it.
  await page.getByRole('button', { name: /^Send [\d.]+ USDC$/ }).click()
  await expect(h1(page)).toHaveText('Paid out', { timeout: 30_000 })
  await expect(counter).toHaveText('Step 8 of 8')
  await page.reload()
  await expect(h1(page)).toHaveText('Paid out')
  await expect(counter).toHaveText('Step 8 of 8')
})

// Item 17: the start and the form name where the money lands; "bank" only where every rail is a bank's.
test('the start and the form name the rail truly: mobile money for KES, either for NGN until a rail is forced, the bank for EUR (unsigned link) @extended', async ({
  page,
  stack,
}) => {
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, undefined, { currencies: 'EUR,KES,NGN' }, { sign: false }))
  await expect(page.getByRole('button', { name: /Cash out to an account/ })).toContainText('receive money by bank, mobile money or wallet')
  await page.getByRole('button', { name: /Cash out to an account/ }).click()
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  await page.getByLabel('Currency paid out').selectOption('KES')
  await expect(h1(page)).toHaveText('Cash out to mobile money')
  await expect(page.getByLabel('What arrives in the mobile money wallet')).toBeChecked()
  await expect(page.getByLabel('Arrives in the mobile money wallet', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Country of the mobile money wallet')).toBeVisible()
  await expect(page.getByText(/bank/i)).toHaveCount(0)
  await page.getByLabel('Currency paid out').selectOption('NGN')
  await expect(h1(page)).toHaveText('Cash out')
  await expect(page.getByLabel('What arrives', { exact: true })).toBeChecked()
  await expect(page.getByLabel('Amount that arrives', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Country where the money arrives')).toBeVisible()
  await page.getByLabel('Payment rail').selectOption({ label: 'Mobile money' })
  await expect(h1(page)).toHaveText('Cash out to mobile money')
  await page.getByLabel('Payment rail').selectOption({ label: 'NIP' })
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  await expectAxeClean(page, 'payout form for mobile money')
})

// Item 12: a decimal comma where it cannot mean thousands; an amount the service refused in the buyer's words.
test('"20,5" on an English page is 20.5, "1,500" is asked about, and an amount the service refuses is said in words, never its raw text (unsigned link) @extended', async ({
  page,
  stack,
}) => {
  await open(page, stack, false)
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  const amount = page.getByLabel('Arrives in the bank', { exact: true })
  await amount.fill('1,500')
  await page.getByLabel('Country of the bank').selectOption('DE')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText('A decimal mark, or thousands? Type it without thousands separators, for example 50.00.')).toBeVisible()
  await expect(amount).toHaveValue('1,500')
  await amount.fill('20,5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await expect(page.getByRole('row', { name: /Arrives in the bank/ })).toContainText('20.5 EUR')
  await page.getByRole('button', { name: 'Back' }).click()
  // One USDC cannot pay for a SEPA transfer's fees and minimum: the service refuses the amount (400 invalid_request).
  await page.getByLabel('What I send (USDC)').check()
  await page.getByLabel('You send', { exact: true }).fill('1')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(
    page.getByText(
      'The service did not accept this amount: it may be too small once the fees are taken, or outside what this route takes. Try a different amount.',
    ),
  ).toBeVisible()
  await expect(page.getByText(/did not accept this: /)).toHaveCount(0)
  await expect(page.getByText('Code: invalid_request')).toBeVisible()
})
