import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import {
  detailsAfterProvider,
  expect,
  fillDetails,
  recordWidgetEvents,
  expectAxeClean,
  expectNothing,
  quietFor,
  setHidden,
  tabTo,
  test,
  walletToProvider,
} from './helpers'
import { type LogEntry, SANDBOX_ORIGIN, SECOND_PARTNER, type StackConfig, cardUrl, destBalance, sandbox } from './stack'

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const bankUrl = (stack: StackConfig, extra: Record<string, string> = {}, sign = true) =>
  demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'bankDeposit', extra, { sign }) as string

type Deposit = {
  id: string
  status: string
  fiatAmount?: string
  cryptoAmount?: string
  settlementTxHash?: string
  internal: { accountId: string; requested: string; rail: string; wallet: string }
}
const allDeposits = async (stack: StackConfig) => (await sandbox(stack, '/__sandbox/bank/deposits')) as Deposit[]
/** This test's deposits: those of the newest buyer (every test verifies a new one). */
const deposits = async (stack: StackConfig) => {
  const all = await allDeposits(stack)
  return all.filter((d) => d.internal.accountId === all.at(-1)?.internal.accountId)
}
const lastDeposit = async (stack: StackConfig) => (await allDeposits(stack)).at(-1)!
const transfer = (stack: StackConfig, id: string, amount?: string) =>
  sandbox(stack, '/__sandbox/bank/deposit/transfer', amount === undefined ? { id } : { id, amount })

/** A buyer the service does not know yet: the wallet, the identity provider, the details, then the amount screen. */
async function onboard(page: Page, stack: StackConfig, account = 5, extra: Record<string, string> = {}, sign = true) {
  await page.goto(bankUrl(stack, extra, sign))
  await walletToProvider(page, stack.accounts[account])
  await detailsAfterProvider(page)
  await expect(h1(page)).toHaveText('How much do you want to pay?')
}

/** On the amount screen: pay `amount` EUR from a German account; the details screen follows. */
async function requestDetails(page: Page, amount: string) {
  // The country the buyer gave when verifying (or of their last deposit) is chosen for them.
  await expect(page.getByLabel('Country of your bank account')).toHaveValue('DE')
  await expect(page.getByText('SEPA Instant · usually instant · up to 100,000 EUR')).toBeVisible()
  await page.getByLabel('Amount you send').fill(amount)
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  // Before paying: what the buyer gets, as far as the contract lets anyone say.
  await expect(page.getByText(/You receive stablecoins for what arrives, less the service's fee/)).toBeVisible()
}

const partnerPosts = (log: LogEntry[], path: string) => log.filter((e) => e.method === 'POST' && e.path === `/partner${path}`)

test('settled with a different amount than requested: what arrived, what the wallet got, the mint', async ({ page, stack, sandbox: sbx }) => {
  const heard = await recordWidgetEvents(page)
  await onboard(page, stack)
  await requestDetails(page, '120.00')
  await expect(page.getByText('Payment reference')).toBeVisible()
  await expect(page.getByText(/Put this reference on your transfer/)).toBeVisible()
  await expect(page.getByText(/^DE\d\d \d{4} \d{4} \d{4} \d{4} \d{2}$/)).toBeVisible()
  await expect(page.getByText('SBXBDEFFXXX')).toBeVisible()
  await expect(page.getByText(/These details are valid for \d+:\d\d|These details are valid until/)).toBeVisible()
  const deposit = await lastDeposit(stack)
  expect(deposit.internal.requested).toBe('120.00')
  const before = await destBalance(stack, stack.accounts[5])
  await transfer(stack, deposit.id, '95.50')
  await expect(h1(page)).toHaveText('Your payment is complete', { timeout: 30_000 })
  const summary = page.locator('dl.summary')
  await expect(summary).toContainText('95.5 EUR')
  await expect(page.getByText('You asked for 120 EUR and 95.5 EUR arrived: you got stablecoins for what arrived.')).toBeVisible()
  const settled = await lastDeposit(stack)
  // The asset is the service's word (the sandbox says USDC), never assumed.
  await expect(summary).toContainText(`${Number(settled.cryptoAmount)} USDC`)
  await expect(page.getByText(/Settlement transaction: 0x/)).toBeVisible()
  // Really minted on the destination chain, to the onboarded wallet.
  expect((await destBalance(stack, stack.accounts[5])) - before).toBe(BigInt(Math.round(Number(settled.cryptoAmount) * 1e6)))
  expect(heard.names()).toContain('submitted')
  expect(heard.completed()).toMatchObject({ flow: 'bankDeposit', id: deposit.id, outcome: 'settled', currency: 'USDC', txHash: settled.settlementTxHash })
  // Requests per completed deposit, by path (the closing note of issue 17); preflights apart.
  const log = (await sbx.log()).filter((e) => e.method !== 'OPTIONS')
  const byPath = (pred: (e: LogEntry) => boolean) => log.filter(pred).map((e) => `${e.method} ${e.path}`)
  const partner = byPath((e) => e.path.startsWith('/partner/'))
  const widget = byPath((e) => /^\/(deposit|fiat|card)\//.test(e.path))
  const tally = (list: string[]) =>
    Object.entries(list.reduce<Record<string, number>>((n, k) => ((n[k] = (n[k] ?? 0) + 1), n), {}))
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ')
  console.log(`[requests] partner backend ${partner.length}: ${tally(partner)}; widget path ${widget.length}: ${tally(widget)}`)
  expect(partnerPosts(log, '/bank/deposit')).toHaveLength(1)
})

test('returned below the rail minimum: the reason, and the money goes back minus the rail cost @extended', async ({ page, stack }) => {
  await onboard(page, stack)
  await requestDetails(page, '25.00')
  await transfer(stack, (await lastDeposit(stack)).id, '0.50')
  await expect(h1(page)).toHaveText('Your transfer was sent back', { timeout: 20_000 })
  await expect(page.getByText('Why: the amount was below the smallest transfer SEPA Instant takes.')).toBeVisible()
  await expect(page.getByText('The money goes back to the account you sent it from, minus the cost of the SEPA Instant transfer.')).toBeVisible()
  await expect(page.locator('dl.summary')).toContainText('0.5 EUR')
})

test('expired is not a loss: a transfer already sent still arrives and is followed to settled @extended', async ({ page, stack }) => {
  await onboard(page, stack)
  await requestDetails(page, '40.00')
  const { id } = await lastDeposit(stack)
  await sandbox(stack, '/__sandbox/bank/deposit/expire', { id })
  await expect(h1(page)).toHaveText('These bank details have run out', { timeout: 20_000 })
  await expect(
    page.getByText('If you sent the transfer before the deadline, nothing is lost: it still settles, and we keep following it here.', { exact: false }),
  ).toBeVisible()
  await expect(page.getByText(/lost|failed/i).filter({ hasNotText: 'nothing is lost' })).toHaveCount(0)
  await transfer(stack, id)
  await expect(h1(page)).toHaveText(/Your transfer arrived|Your payment is complete/, { timeout: 20_000 })
  await expect(h1(page)).toHaveText('Your payment is complete', { timeout: 30_000 })
  await expect(page.locator('dl.summary')).toContainText('40 EUR')
})

test('a reload at every status resumes where the deposit is @extended', async ({ page, stack, sandbox: sbx }) => {
  await sbx.control({ bankDepositHold: true })
  await onboard(page, stack)
  await requestDetails(page, '60.00')
  const reference = await page.locator('.copy-field.large .value').first().textContent()
  await page.reload()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  await expect(page.locator('.copy-field.large .value').first()).toHaveText(reference!)
  const { id } = await lastDeposit(stack)
  await sandbox(stack, '/__sandbox/bank/deposit/expire', { id })
  await expect(h1(page)).toHaveText('These bank details have run out', { timeout: 20_000 })
  await page.reload()
  await expect(h1(page)).toHaveText('These bank details have run out')
  await transfer(stack, id)
  await expect(h1(page)).toHaveText('Your transfer arrived', { timeout: 20_000 })
  await expect(page.getByText('Status: transfer received')).toBeVisible()
  await page.reload()
  await expect(page.getByText('Status: transfer received')).toBeVisible()
  await sandbox(stack, '/__sandbox/bank/deposit/advance', { id })
  await expect(page.getByText('Status: converting to stablecoins')).toBeVisible({ timeout: 20_000 })
  await page.reload()
  await expect(page.getByText('Status: converting to stablecoins')).toBeVisible()
  await sandbox(stack, '/__sandbox/bank/deposit/advance', { id })
  await expect(h1(page)).toHaveText('Your payment is complete', { timeout: 20_000 })
  await page.reload()
  await expect(h1(page)).toHaveText('Your payment is complete')
  await expect(page.locator('dl.summary')).toContainText('60 EUR')
  // A new payment starts from the amount, for the same buyer (no second verification).
  await page.getByRole('button', { name: 'Make another payment' }).click()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await requestDetails(page, '2.00')
  const second = await lastDeposit(stack)
  await transfer(stack, second.id, '0.10')
  await expect(h1(page)).toHaveText('Your transfer was sent back', { timeout: 20_000 })
  await page.reload()
  await expect(h1(page)).toHaveText('Your transfer was sent back')
})

test('a country without the one-off deposit gets the virtual account @extended', async ({ page, stack, sandbox: sbx }) => {
  // Unsigned: the link itself may then name the other flow.
  await onboard(page, stack, 5, {}, false)
  await page.getByLabel('Country of your bank account').selectOption('US')
  await expect(page.getByText(/A one-off transfer for an exact amount is not available for bank accounts in United States/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Get bank details' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Get standing bank details' }).click()
  // The virtual-account flow, for the buyer already known: no second verification.
  await expect(page.locator('.flow-name')).toHaveText('Bank transfer')
  expect(partnerPosts(await sbx.log(), '/bank/deposit')).toHaveLength(0)
})

test('an amount over the rail limit is refused before any request @extended', async ({ page, stack, sandbox: sbx }) => {
  await onboard(page, stack)
  await page.getByLabel('Amount you send').fill('100000.01')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(page.getByText('The largest transfer SEPA Instant takes is 100,000 EUR.')).toBeVisible()
  await expect(page.getByLabel('Amount you send')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Amount you send')).toHaveValue('100000.01')
  expect(partnerPosts(await sbx.log(), '/bank/deposit')).toHaveLength(0)
  // The ceiling itself is fine.
  await page.getByLabel('Amount you send').fill('100000')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  // Before paying: what the buyer gets, as far as the contract lets anyone say.
  await expect(page.getByText(/You receive stablecoins for what arrives, less the service's fee/)).toBeVisible()
})

test('a lost answer is retried under the same reference: one deposit @extended', async ({ page, stack }) => {
  await onboard(page, stack)
  const references: string[] = []
  let lose = 1
  await page.route('**/partner/bank/deposit', async (route) => {
    references.push(JSON.parse(route.request().postData() ?? '{}').reference)
    // The service answers; the answer never reaches the page.
    const answer = await route.fetch()
    expect(answer.status()).toBe(200)
    if (lose-- > 0) return route.abort('connectionreset')
    return route.fulfill({ response: answer })
  })
  await page.getByLabel('Amount you send').fill('33.00')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(page.getByRole('alert')).toBeVisible()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  // The reference survives a reload too (kept before the first attempt).
  await page.reload()
  await page.getByLabel('Country of your bank account').selectOption('DE')
  await page.getByLabel('Amount you send').fill('33.00')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  expect(references).toHaveLength(2)
  expect(references[0]).toMatch(/^bd-[0-9a-f]{32}$/)
  expect(references[1]).toBe(references[0])
  expect(await deposits(stack)).toHaveLength(1)
})

test('a partner backend fault on create, then a retry: the same reference, one deposit @extended', async ({ page, stack, sandbox: sbx }) => {
  await onboard(page, stack)
  await sbx.faults([{ kind: '502', path: '/partner/bank/deposit' }])
  await page.getByLabel('Amount you send').fill('12.00')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(page.getByRole('alert')).toBeVisible()
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  expect(partnerPosts(await sbx.log(), '/bank/deposit')).toHaveLength(2)
  expect(await deposits(stack)).toHaveLength(1)
})

test('axe clean and keyboard only, from the amount to the details', async ({ page, stack }) => {
  await onboard(page, stack)
  await expectAxeClean(page, 'bank deposit amount')
  const country = page.getByLabel('Country of your bank account')
  await tabTo(page, country)
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  const amount = page.getByLabel('Amount you send')
  await tabTo(page, amount)
  await page.keyboard.type('15.00')
  await page.keyboard.press('Enter')
  await expect(h1(page)).toHaveText('Send your bank transfer')
  await expect(h1(page)).toBeFocused()
  await expectAxeClean(page, 'bank deposit details')
  await tabTo(page, page.getByRole('button', { name: 'Copy Payment reference' }))
  await transfer(stack, (await lastDeposit(stack)).id, '0.20')
  await expect(h1(page)).toHaveText('Your transfer was sent back', { timeout: 20_000 })
  await expectAxeClean(page, 'bank deposit returned')
  await tabTo(page, page.getByRole('button', { name: 'Make another payment' }))
  await page.keyboard.press('Enter')
  await expect(h1(page)).toHaveText('How much do you want to pay?')
})

test('PIX details are drawn as a QR code, with the copy-and-paste code @extended', async ({ page, stack }) => {
  await onboard(page, stack, 5, { currencies: 'BRL,EUR' })
  await page.getByLabel('Country of your bank account').selectOption('BR')
  await expect(page.getByLabel('Currency')).toHaveValue('BRL')
  await expect(page.getByText('PIX · usually instant · up to 50,000 BRL')).toBeVisible()
  await page.getByLabel('Amount you send').fill('80')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  await expect(page.getByText('PIX key')).toBeVisible()
  await expect(page.getByRole('img', { name: /PIX QR code to pay 80 BRL/ })).toBeVisible()
})

test('the indicative card rate appears under the amount and follows it @extended', async ({ page, stack, sandbox: sbx }) => {
  await page.goto(cardUrl(stack))
  const amount = page.getByLabel(/Total/)
  await amount.fill('100')
  const rate = page.locator('#total-rate')
  await expect(rate).toHaveText(/^About 0\.03\d* ETH \(indicative, not reserved\)$/)
  const first = await rate.textContent()
  await amount.fill('250')
  await expect(rate).not.toHaveText(first!)
  await expect(rate).toHaveText(/^About 0\.0[78]\d* ETH/)
  const rates = (await sbx.log()).filter((e) => e.path === '/partner/card/rate')
  // Debounced: not one request per keystroke ("250" is three).
  expect(rates.length).toBeLessThanOrEqual(3)
  // Nothing was priced or reserved on the widget path.
  expect((await sbx.log()).filter((e) => e.path === '/card/quote')).toHaveLength(0)
})

test('the status poll pauses while the page is hidden, and goes on when it shows again @extended', async ({ page, stack, sandbox: sbx }) => {
  await onboard(page, stack)
  await requestDetails(page, '10.00')
  const polls = async () => partnerPosts(await sbx.log(), '/bank/deposit/status').length
  await expect.poll(polls).toBeGreaterThan(0)
  await setHidden(page, true)
  const before = await polls()
  const seen: number[] = []
  await expectNothing(async () => ((await polls()) > before + 1 ? (seen.push(await polls()), seen) : []), quietFor('bankPollMs'), 'status polls while hidden')
  await setHidden(page, false)
  await expect.poll(polls).toBeGreaterThan(before + 1)
})

const LOCALES: Record<string, string> = {
  en: 'How much do you want to pay?',
  de: 'Wie viel möchten Sie zahlen?',
  es: '¿Cuánto quiere pagar?',
  fr: 'Combien voulez-vous payer ?',
  'pt-BR': 'Quanto você quer pagar?',
}
for (const [locale, heading] of Object.entries(LOCALES)) {
  test(`${locale} at 320 px: amount, details and result are translated, fit and are axe-clean @extended`, async ({ page, stack }) => {
    await onboard(page, stack)
    await page.setViewportSize({ width: 320, height: 800 })
    await page.goto(bankUrl(stack, { locale }))
    await expect(h1(page)).toHaveText(heading)
    await expect(page.locator('.widget')).toHaveAttribute('lang', locale)
    const fits = async (screen: string) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth), screen).toBeLessThanOrEqual(320)
      await expectAxeClean(page, `${screen} ${locale}`)
    }
    // A new visit by a known buyer: no country chosen yet ("de" names none).
    await page.locator('#deposit-country').selectOption('DE')
    await fits('amount')
    await page.locator('#deposit-amount').fill(locale === 'en' ? '20.00' : '20,00')
    await page.locator('form button[type=submit]').click()
    await expect(page.locator('.bank-deposit-details')).toBeVisible()
    await fits('details')
    await transfer(stack, (await lastDeposit(stack)).id)
    await expect(page.locator('dl.summary')).toBeVisible({ timeout: 30_000 })
    await expect(page.locator('.tx')).toBeVisible({ timeout: 30_000 })
    await fits('settled')
  })
}

test('the step counter never contradicts itself: one total from the first screen on, the same after a reload @extended', async ({ page, stack }) => {
  const counter = async () => ((await page.locator('.step-count').count()) ? await page.locator('.step-count').textContent() : null)
  const seen: Array<[string, string | null]> = []
  const note = async () => seen.push([(await h1(page).textContent()) ?? '', await counter()])
  await page.goto(bankUrl(stack))
  await expect(h1(page)).toHaveText('Where should your stablecoins go?')
  await note()
  await page.getByLabel('Wallet address').fill(stack.accounts[5])
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(page)).toHaveText('Verify your identity')
  await note()
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1(page)).toHaveText('Your details')
  await note()
  await fillDetails(page)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await note()
  await requestDetails(page, '20.00')
  await note()
  const before = await counter()
  await page.reload()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  expect(await counter(), 'the details after a reload').toBe(before)
  // Shown on every screen with one total, or on none.
  const totals = new Set(seen.map(([, c]) => c?.replace(/^.*of /, '') ?? null))
  expect(totals.size, JSON.stringify(seen)).toBe(1)
  // A reopened link, for a buyer known by now, says the same.
  await page.goto(bankUrl(stack))
  await expect(h1(page)).toHaveText('Send your bank transfer')
  expect(await counter(), 'the details reopened').toBe(before)
})

test('the first screen opens on a route that exists: never a country without the one-off deposit @extended', async ({ page, stack }) => {
  await onboard(page, stack)
  // A new visit, from a browser in the United States (no one-off deposit there, in the sandbox).
  await page.goto(bankUrl(stack, { locale: 'en-US' }))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect(page.getByText('SEPA Instant · usually instant · up to 100,000 EUR')).toBeVisible()
  await expect(page.getByText(/not available/)).toHaveCount(0)
  await expect(page.getByLabel('Country of your bank account')).not.toHaveValue('US')
  await expect(page.getByLabel('Currency')).toHaveValue('EUR')
  await page.getByLabel('Amount you send').fill('20')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  // Before paying: what the buyer gets, as far as the contract lets anyone say.
  await expect(page.getByText(/You receive stablecoins for what arrives, less the service's fee/)).toBeVisible()
})

// Issue 39, item 3: one rule with the payout's (lib/routeDefaults.ts): the registry's defaults, then
// the buyer's own country, then the browser's region, then the first route the limits allow.
test('a registry default is honoured: a buyer verified in a country with no one-off deposit (United States) opens on the registry’s Germany in EUR', async ({
  page,
  stack,
}) => {
  await page.goto(bankUrl(stack))
  await walletToProvider(page, stack.accounts[5])
  await detailsAfterProvider(page, { country: 'US', nationality: 'US' })
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect(page.getByLabel('Country of your bank account')).toHaveValue('DE')
  await expect(page.getByLabel('Currency')).toHaveValue('EUR')
  await page.getByLabel('Amount you send').fill('20')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
})

test('the registry’s defaults come before the browser’s region: en-GB still opens on Germany in EUR @extended', async ({ page, stack }) => {
  await onboard(page, stack)
  await page.goto(bankUrl(stack, { locale: 'en-GB' }))
  await expect(page.getByLabel('Country of your bank account')).toHaveValue('DE')
  await expect(page.getByLabel('Currency')).toHaveValue('EUR')
})

test('without registry defaults, the browser’s region where it has a route: en-GB opens on the United Kingdom in GBP @extended', async ({ page, stack }) => {
  await onboard(page, stack, 5, { partner: SECOND_PARTNER }, false)
  await page.goto(bankUrl(stack, { partner: SECOND_PARTNER, locale: 'en-GB' }, false))
  await expect(page.getByLabel('Country of your bank account')).toHaveValue('GB')
  await expect(page.getByLabel('Currency')).toHaveValue('GBP')
  await expect(page.getByLabel('Amount you send')).toBeVisible()
})

test('the virtual account is offered in true words: held by the banking partner, not an account in the buyer’s name @extended', async ({ page, stack }) => {
  await onboard(page, stack, 5, {}, false)
  await page.getByLabel('Country of your bank account').selectOption('US')
  await expect(
    page.getByText(
      'You can get standing bank details instead, on an account our banking partner holds: every transfer you send to them with your reference reaches your wallet as stablecoins, less a fee. It settles in hours or days.',
    ),
  ).toBeVisible()
  await expect(page.getByText(/in your name/)).toHaveCount(0)
  await page.getByRole('button', { name: 'Get standing bank details' }).click()
  await expect(page.locator('.flow-name')).toHaveText('Bank transfer')
})

// Issue 39, item 20: the service asks a higher verification tier (422 requires_action) when the
// deposit is asked for. The buyer verifies again (tier=higher), comes back, and the same request goes
// again under the same idempotency reference: the bank details for the amount typed, one deposit.
const REQUIRES_ACTION = 'Your verification level does not allow this payment. Complete a higher level of verification, then try again.'
for (const sign of [true, false]) {
  test(`a deposit that needs the higher tier (${sign ? 'signed' : 'unsigned'} link): verified again, the same request under the same reference, one deposit @extended`, async ({
    page,
    stack,
    sandbox: sbx,
  }) => {
    // Every request to create the deposit (the partner backend's) and to onboard (the widget path's): the body, and the status answered.
    const sent = (suffix: string) => {
      const seen: Array<{ body: Record<string, unknown>; status: Promise<number | undefined> }> = []
      page.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname.endsWith(suffix))
          seen.push({ body: r.postDataJSON() as Record<string, unknown>, status: r.response().then((a) => a?.status()) })
      })
      return seen
    }
    const posts = sent('/partner/bank/deposit')
    const onboards = sent('/fiat/onboard')
    const counter = page.locator('.step-count')
    await sbx.control({ requiresAction: true })
    await page.goto(bankUrl(stack, {}, sign))
    await page.getByLabel('Wallet address').fill(stack.accounts[5])
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
    await page.getByRole('button', { name: 'Verify my identity' }).click()
    await expect(h1(page)).toHaveText('Your details')
    // A name of this test's own: the higher tier raises this applicant's account, not another test's.
    await fillDetails(page, { name: `Katherine Johnson ${sign ? 'S' : 'U'}`, email: 'katherine@example.com' })
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect(h1(page)).toHaveText('How much do you want to pay?')
    await page.getByLabel('Amount you send').fill('75.00')
    await page.getByRole('button', { name: 'Get bank details' }).click()

    // Why, in the buyer's words, and the way through: the identity provider at the higher tier.
    await expect(h1(page)).toHaveText('Verify your identity')
    await expect(page.getByText(REQUIRES_ACTION)).toBeVisible()
    await expect(page.getByText(/not asked again/)).toHaveCount(0)
    await expect(counter).toHaveCount(0)
    const link = page.getByRole('link', { name: 'Verify with our identity partner' })
    expect(new URL((await link.getAttribute('href'))!).searchParams.get('tier')).toBe('higher')
    expect(await Promise.all(posts.map((p) => p.status))).toEqual([422])
    await link.click()
    await expect(page.getByText(/higher verification tier/)).toBeVisible()
    await page.getByRole('button', { name: 'Verify my identity' }).click()

    // Back: the details typed go again with the new code (no form), then the same request.
    await expect(h1(page)).toHaveText('Send your bank transfer')
    await expect(page.getByText(REQUIRES_ACTION)).toHaveCount(0)
    await expect(counter).toHaveCount(0)
    await expect(page.getByText('75 EUR').first()).toBeVisible()
    expect(onboards).toHaveLength(2)
    const [basic, higher] = onboards.map((o) => o.body)
    expect(higher.authCode).not.toBe(basic.authCode)
    expect({ ...higher, authCode: undefined }).toEqual({ ...basic, authCode: undefined })
    expect(await Promise.all(posts.map((p) => p.status))).toEqual([422, 200])
    const [first, again] = posts.map((p) => p.body)
    expect(first.reference).toMatch(/^bd-[0-9a-f]{32}$/)
    expect(again).toEqual(first)
    const mine = await deposits(stack)
    expect(mine).toHaveLength(1)
    expect(mine[0].internal.requested).toBe('75.00')
    expect(partnerPosts(await sbx.log(), '/bank/deposit')).toHaveLength(2)
  })
}
