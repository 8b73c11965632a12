import type { Page } from '@playwright/test'
import { expect, expectNothing, expectWithinRateLimit, fillDetails, keptKey, quietSpan, sandboxOf, setHidden, test, widgetPath } from './helpers'
import {
  type LogEntry,
  type StackConfig,
  TIMINGS,
  cardUrl,
  destBalance,
  fiatUrl,
  mineAndResume,
  rpc,
  sandbox,
  stackConfig,
  widgetUrl,
  SANDBOX_ORIGIN,
} from './stack'
import { openDeposit } from './testWallet'
import { messages as de } from '../src/i18n/de'
import { en } from '../src/i18n/en'
import { enAmount } from '../src/i18n/shared/en-amount'
import { enCard } from '../src/i18n/en-card'
import { enCardLater } from '../src/i18n/en-cardLater'

// Faults the widget must survive. Each test starts on a reset sandbox, ends on its flow's terminal
// state, and checks that the faults it injected were really met (the sandbox logs each one).
let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})

// A slow answer: well past the sandbox build's poll interval (no second request may overlap it),
// well short of the client's 15 s timeout.
const SLOW_MS = 4 * TIMINGS.pollMs

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const faults = (list: object[]) => sandbox(stack, '/__sandbox/control', { faults: list })
/** The storm of the card and bank tests: a 500 on `first`, a 502 then a slow answer on `create`, two 502s then a slow answer on the status polls at `status`. */
const storm = (first: string, create: string, status: string) => [
  { kind: '500', count: 1, path: first },
  { kind: '502', count: 1, path: create },
  { kind: 'slow', count: 1, delayMs: SLOW_MS, path: create },
  { kind: '502', count: 2, path: status },
  { kind: 'slow', count: 1, delayMs: SLOW_MS, path: status },
]
const faultsHit = async () => ((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter((e) => e.fault).length
const posts = async (path: string) => ((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter((e) => e.method === 'POST' && e.path === path)

const depositPage = (page: Page, account: number) => openDeposit(page, stack, account)

test('500 and 502 bursts and slow answers: the flow offers retry or waits, then completes @extended', async ({ page }) => {
  await depositPage(page, 1)
  await faults([{ kind: '500', count: 1, path: '/deposit/quote' }])
  await page.getByLabel('Amount').fill('2')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText('The service had a problem. Try again in a moment.')).toBeVisible()
  await expect(page.getByLabel('Amount')).toHaveValue('2')
  await faults([{ kind: 'slow', count: 1, delayMs: SLOW_MS, path: '/deposit/quote' }])
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(h1(page)).toHaveText('Check your deposit', { timeout: 15_000 })
  await faults([
    { kind: '502', count: 2, path: '/deposit/status' },
    { kind: '500', count: 1, path: '/deposit/status' },
    { kind: 'slow', count: 1, delayMs: SLOW_MS, path: '/deposit/status' },
  ])
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 90_000 })
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect(await faultsHit()).toBe(6)
})

// Card and bank apart (each with a fresh browser and sandbox), so the two workers share them.
test('500 and 502 bursts and slow answers on every card endpoint, the partner backend included: retry or wait, then complete @extended', async ({ page }) => {
  await faults([
    { kind: '502', count: 1, path: '/card/quote' },
    { kind: 'slow', count: 1, delayMs: SLOW_MS, path: '/card/quote' },
  ])
  await page.goto(cardUrl(stack))
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(page.getByRole('alert')).toContainText('A partner of the service is unavailable. Try again later.')
  await expect(page.getByLabel('Total to pay')).toHaveValue('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(h1(page)).toHaveText('Check your purchase', { timeout: 15_000 })
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[2])
  // The partner's backend fails too: the identity token, the purchase, then the status polls.
  await faults(storm('/partner/card/kyc-token', '/partner/card/purchase', '/partner/card/status'))
  const address = page.getByLabel('Wallet address that receives the crypto')
  for (const message of ['The service had a problem. Try again in a moment.', 'A partner of the service is unavailable. Try again later.']) {
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await expect(page.getByRole('alert')).toContainText(message)
    await expect(address).toHaveValue(stack.accounts[2])
  }
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByRole('button', { name: 'Pay', exact: true }).click({ timeout: 15_000 })
  await expect(h1(page)).toHaveText('Purchase complete', { timeout: 30_000 })
  expect(await posts('/partner/card/purchase')).toHaveLength(2)
  expect(await faultsHit()).toBe(8)
})

test('500 and 502 bursts and slow answers on every bank endpoint: retry or wait, then complete @extended', async ({ page }) => {
  await page.goto(fiatUrl(stack, { walletAddress: stack.accounts[8], authCode: 'ac_5xx_case' }))
  await sandbox(stack, '/__sandbox/control', { issueAuthCode: 'ac_5xx_case' })
  await faults(storm('/fiat/onboard', '/fiat/account', '/fiat/status'))
  await fillDetails(page, { name: 'Grace Hopper', email: 'grace@example.com' })
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(page.getByText('The service had a problem. Try again in a moment.')).toBeVisible()
  await expect(page.getByLabel('Full name')).toHaveValue('Grace Hopper')
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  // Onboarded; opening the account meets a 502: the buyer is told and offered a retry.
  await expect(page.getByRole('alert')).toContainText('A partner of the service is unavailable. Try again later.')
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer', { timeout: 15_000 })
  const { virtuals } = (await sandbox(stack, '/__sandbox/fiat')) as { virtuals: Array<[string, unknown]> }
  await sandbox(stack, '/__sandbox/control', { fundAccount: { virtualAccountId: virtuals.at(-1)![0], amount: '7' } })
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 90_000 })
  await expect(page.getByRole('alert')).toHaveCount(0)
  expect(await faultsHit()).toBe(6)
})

test('malformed and schema-violating answers: a clear error, no crash, and the flow goes on @extended', async ({ page }) => {
  await page.goto(cardUrl(stack))
  await faults([{ kind: 'malformed', count: 1, path: '/card/quote' }])
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(page.getByText('The service answered in a way we did not expect. Try again in a moment.')).toBeVisible()
  await faults([{ kind: 'garbage', count: 1, path: '/card/quote' }])
  // The same words as before: wait for this answer itself, not for the words still on screen.
  const garbage = page.waitForResponse((r) => r.url().endsWith('/card/quote') && r.request().method() === 'POST')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await garbage
  await expect(page.getByText('The service answered in a way we did not expect. Try again in a moment.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'See what you get' })).toBeEnabled()
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(h1(page)).toHaveText('Check your purchase')
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[2])
  // The partner's backend answers the purchase in a shape nobody expects: said, and retried by the buyer.
  await faults([{ kind: 'malformed', count: 1, path: '/partner/card/purchase' }])
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(page.getByRole('alert')).toContainText('The service answered in a way we did not expect. Try again in a moment.')
  await expect(page.getByLabel('Wallet address that receives the crypto')).toHaveValue(stack.accounts[2])
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(h1(page)).toHaveText('Purchase complete', { timeout: 30_000 })
  expect(await faultsHit()).toBe(3)
})

test('offline mid-poll and back: polling resumes and completes @extended', async ({ page, context }) => {
  await depositPage(page, 2)
  await sandbox(stack, '/__sandbox/control', { processingMs: 3_000 })
  const before = await destBalance(stack, stack.accounts[2])
  await page.getByLabel('Amount').fill('1.5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText(/Delivering to/)).toBeVisible({ timeout: 30_000 })
  // The screen says so from the receipt; the service starts delivery once a status call reached it
  // (the page's limiter may still be holding that call back).
  await expect.poll(async () => (await posts('/deposit/status')).filter((e) => e.status === 200).length, { timeout: 30_000 }).toBeGreaterThan(0)
  await context.setOffline(true)
  // Offline until the routing layer has delivered: only a poll after coming back can learn it.
  await expect.poll(() => destBalance(stack, stack.accounts[2]), { timeout: 30_000 }).toBeGreaterThan(before)
  await expect(h1(page)).not.toHaveText('Deposit delivered')
  await context.setOffline(false)
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
})

test('the tab closed after sending, reopened after mining: resumes from the stored hash and signs nothing @extended', async ({ browser }) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  const { wallet, source } = await sentAndHeld(page, 3, '2')
  const signed = wallet.signatures()
  await page.close()
  await mineAndResume(source.rpcUrl)
  const before = (await posts('/deposit/status')).length
  const again = await context.newPage()
  await wallet.install(again)
  await again.goto(widgetUrl(stack))
  await expect(h1(again)).toHaveText('Deposit delivered', { timeout: 60_000 })
  expect(wallet.signatures()).toBe(signed)
  // The receipt is submitted by the status calls of this one resumed flow, and not after done.
  const after = await posts('/deposit/status')
  expect(after.length - before).toBeGreaterThanOrEqual(1)
  await expectNothing(
    async () => (await posts('/deposit/status')).slice(after.length),
    await quietSpan(sandboxOf(stack), 'pollMs', 6),
    'status calls after done',
  )
  await context.close()
})

test('chainChanged and accountsChanged between signing and receipt do not derail the deposit @extended', async ({ page }) => {
  const { wallet, source } = await sentAndHeld(page, 4, '1')
  wallet.chainId = 42161
  await wallet.emit(page, 'chainChanged', '0xa4b1')
  await wallet.emit(page, 'accountsChanged', [stack.accounts[5]])
  await mineAndResume(source.rpcUrl)
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
})

// One flow per test (each with a fresh browser, whose limiter no earlier flow has used), so the two workers share them.
test('a double click on every submit button of the deposit sends one request @extended', async ({ page }) => {
  const wallet = await depositPage(page, 5)
  await page.getByLabel('Amount').fill('1')
  await page.getByRole('button', { name: 'See the price' }).dblclick()
  await expect(h1(page)).toHaveText('Check your deposit')
  await page.getByRole('button', { name: 'Confirm and send' }).dblclick()
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  expect(await posts('/deposit/quote')).toHaveLength(1)
  expect(wallet.signatures()).toBe(3) // the wallet check (the kit's sign-in message, once per wallet), one approve, one deposit
})

test('a double click on every submit button of the card purchase sends one request', async ({ page }) => {
  await page.goto(cardUrl(stack))
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).dblclick()
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[5])
  await page.getByRole('button', { name: 'Continue to payment' }).dblclick()
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  expect(await posts('/card/quote')).toHaveLength(1)
  expect(await posts('/partner/card/purchase')).toHaveLength(1)
})

test('a double click on every submit button of the bank onboarding sends one request', async ({ page }) => {
  await page.goto(fiatUrl(stack, { walletAddress: stack.accounts[5], authCode: 'ac_double_click' }))
  await sandbox(stack, '/__sandbox/control', { issueAuthCode: 'ac_double_click' })
  await fillDetails(page)
  await page.getByRole('button', { name: 'Get the bank details' }).dblclick()
  await expect(h1(page)).toHaveText('Send a bank transfer', { timeout: 15_000 })
  expect(await posts('/fiat/onboard')).toHaveLength(1)
  expect(await posts('/fiat/account')).toHaveLength(1)
})

test('server strings carrying HTML or script are shown as text', async ({ page }) => {
  const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
  await page.route('**/card/quote', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          headers: { 'Access-Control-Allow-Origin': SANDBOX_ORIGIN, 'Content-Type': 'application/json' },
          body: JSON.stringify({ error: { code: 'invalid_request', message: `fiatCurrency: ${hostile}` } }),
        })
      : route.continue(),
  )
  await page.goto(cardUrl(stack))
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  // A refusal naming a field the widget has no words for shows the service's text, as text.
  await expect(page.getByText(`The service did not accept this: fiatCurrency: ${hostile}`)).toBeVisible()
  expect(await page.locator('.widget img, .widget script').count()).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
})

test('a hidden tab makes no requests; on its return it catches up with one @extended', async ({ page }) => {
  await page.goto(fiatUrl(stack, { walletAddress: stack.accounts[6], authCode: 'ac_hidden_case' }))
  await sandbox(stack, '/__sandbox/control', { issueAuthCode: 'ac_hidden_case' })
  await fillDetails(page, { phone: '+49 151 23456789' })
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  // Hidden: no status call (after a second's grace for one on its way) over several bank polls.
  await setHidden(page, true)
  const hiddenAt = Date.now()
  const span = 1_000 + (await quietSpan(sandboxOf(stack), 'bankPollMs'))
  await expectNothing(async () => (await posts('/fiat/status')).filter((e) => e.t > hiddenAt + 1_000), span, 'bank polls while hidden')
  const shownAt = Date.now()
  await setHidden(page, false)
  // Shown again: one catch-up call at once (before a poll interval is over), then the usual pace.
  const since = async () => (await posts('/fiat/status')).filter((e) => e.t >= shownAt)
  await expect.poll(async () => (await since()).length).toBeGreaterThanOrEqual(2)
  const [first, second] = await since()
  expect(first.t - shownAt, 'the catch-up call comes at once').toBeLessThan(TIMINGS.bankPollMs)
  expect(second.t - first.t, 'one catch-up call, not a burst').toBeGreaterThanOrEqual(TIMINGS.bankPollMs / 2)
  const { virtuals } = (await sandbox(stack, '/__sandbox/fiat')) as { virtuals: Array<[string, unknown]> }
  await sandbox(stack, '/__sandbox/control', { fundAccount: { virtualAccountId: virtuals.at(-1)![0], amount: '5' } })
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 40_000 })
})

test('two tabs of one deposit: only one sends, the other says so and follows; together within 5 requests per 10 s @extended', async ({ browser }) => {
  // Delivery held long enough to see both tabs follow the one deposit (the sandbox build is fast).
  await sandbox(stack, '/__sandbox/control', { processingMs: 5_000 })
  const context = await browser.newContext()
  const a = await context.newPage()
  const b = await context.newPage()
  const wallet = await depositPage(a, 7)
  await wallet.install(b)
  await b.goto(widgetUrl(stack))
  await b.getByRole('button', { name: 'Test Wallet' }).click()
  for (const page of [a, b]) {
    await page.getByLabel('Amount').fill('1')
    await page.getByRole('button', { name: 'See the price' }).click()
    await expect(h1(page)).toHaveText('Check your deposit')
  }
  const startedAt = Date.now()
  // Both at once. A tab that already adopted the other's send has no button left to press: its
  // click gives up (the outcome below is what counts), instead of waiting for the test's timeout.
  const press = (page: typeof a) =>
    page
      .getByRole('button', { name: 'Confirm and send' })
      .click({ timeout: 5_000 })
      .catch(() => undefined)
  const presses = Promise.all([press(a), press(b)])
  for (const page of [a, b]) await expect(h1(page)).toHaveText('Your deposit is on its way', { timeout: 30_000 })
  await presses
  // One deposit was sent, by one tab; the other one says another tab follows it.
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(2) // approve + deposit
  const elsewhere = async () => (await a.getByText(/followed in another tab/).count()) + (await b.getByText(/followed in another tab/).count())
  await expect.poll(elsewhere).toBe(1)
  for (const page of [a, b]) await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  // The widget path only: the deposit is also told to the partner's kit, which asks the service's
  // partner path (limited per key, not per IP).
  const log = widgetPath((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter((e) => e.t >= startedAt - 10_000 && e.method === 'POST')
  expectWithinRateLimit(log)
  await context.close()
})

// Amounts as buyers and attackers type them. Each gives the exact decimal string the quote request
// carries, or a refusal in the buyer's words that sends nothing and keeps what was typed.
const amountTable: [locale: 'en' | 'de', input: string, expected: string | 'empty' | 'format' | 'ambiguous' | 'below' | 'decimals'][] = [
  ['en', '50', '50'],
  ['en', ' 50.50 ', '50.5'],
  ['en', '0050.10', '50.1'],
  // Issue 39, item 12: the other mark alone is a decimal mark, unless it could group thousands.
  ['en', '50,5', '50.5'],
  ['en', '1,000', 'ambiguous'],
  ['en', '1e2', 'format'],
  ['en', '0x32', 'format'],
  ['en', '5 0', 'format'],
  ['en', 'Infinity', 'format'],
  ['en', 'NaN', 'format'],
  ['en', '\uFF15\uFF10', 'format'], // full-width digits
  ['en', '<img src=x onerror=alert(1)>', 'format'],
  ['en', '-50', 'below'],
  ['en', '0', 'below'],
  ['en', '0.00', 'below'],
  ['en', '50.123', 'decimals'],
  ['en', '', 'empty'],
  ['de', '50,5', '50.5'],
  ['de', '50,50', '50.5'],
  ['de', '1.000', 'ambiguous'],
  ['de', '50.5', '50.5'],
]

test('amount inputs from a table of locale and hostile forms: an exact value or a clear refusal @extended', async ({ page }) => {
  const english = { ...en, ...enAmount, ...enCard, ...enCardLater } as Record<string, string>
  const sent: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/card/quote') && request.method() === 'POST') sent.push(JSON.parse(request.postData() ?? '{}').fiatAmount)
  })
  // The fixed part of a message, before its first {parameter}.
  const fixed = (text: string) => text.split('{')[0].trim()
  for (const locale of ['en', 'de'] as const) {
    const m = (key: string) => (locale === 'de' ? (de as Record<string, string>)[key] : english[key])
    const refusal = {
      empty: m('amount.empty'),
      format: fixed(m('amount.format')),
      ambiguous: fixed(m('amount.ambiguous')),
      below: m('amount.zero'),
      decimals: m('card.decimals'),
    }
    await page.goto(cardUrl(stack, { locale }))
    const field = page.getByLabel(m('card.total'))
    for (const [rowLocale, input, expected] of amountTable) {
      if (rowLocale !== locale) continue
      const before = sent.length
      await field.fill(input)
      await page.getByRole('button', { name: m('card.submit') }).click()
      if (expected in refusal) {
        await expect(page.getByText(refusal[expected as keyof typeof refusal]), `${locale} "${input}"`).toBeVisible()
        await expect(field).toHaveAttribute('aria-invalid', 'true')
        await expect(field, 'a refused amount is kept as typed').toHaveValue(input)
        expect(sent.length, `${locale} "${input}" sends nothing`).toBe(before)
      } else {
        await expect(h1(page)).toHaveText(m('card.quoteHeading'))
        expect(sent.slice(before), `${locale} "${input}"`).toEqual([expected])
        await page.getByRole('button', { name: m('app.back') }).click()
        await expect(field).toHaveValue(input)
      }
    }
  }
  expect(sent).toEqual(amountTable.filter(([, , e]) => /^\d/.test(e)).map(([, , e]) => e))
})

/** A deposit of `amount` from anvil's account `account`, sent while its source chain holds it unmined: the wallet and that chain. */
async function sentAndHeld(page: Page, account: number, amount: string) {
  const wallet = await depositPage(page, account)
  const source = wallet.holdDeposit(stack)
  await quote(page, amount)
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Your deposit is on its way')
  return { wallet, source }
}

async function quote(page: Page, amount: string) {
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your deposit')
}

for (const kind of ['repriced', 'cancelled'] as const) {
  test(`a transaction ${kind} in the wallet is followed: ${kind === 'repriced' ? 'the replacement completes' : 'the flow ends with an explanation'} @extended`, async ({
    page,
  }) => {
    const account = kind === 'repriced' ? 8 : 5
    const { wallet, source } = await sentAndHeld(page, account, '4')
    // A buyer speeds up in the wallet some time after sending: once the widget follows it on chain.
    await page.waitForRequest((r) => r.url().startsWith(source.rpcUrl))
    const from = stack.accounts[account]
    const nonce = (await rpc(source.rpcUrl, 'eth_getTransactionCount', [from, 'latest'])) as string
    const gasPrice = BigInt((await rpc(source.rpcUrl, 'eth_gasPrice')) as string) * 3n
    // The "speed up" or "cancel" a wallet does: the same nonce, a higher price.
    const replacement =
      kind === 'repriced'
        ? {
            from,
            to: source.sent()!.to,
            data: source.sent()!.data ?? source.sent()!.input,
            value: '0x0',
            nonce,
            gasPrice: `0x${gasPrice.toString(16)}`,
            gas: '0x493e0',
          }
        : { from, to: from, value: '0x0', nonce, gasPrice: `0x${gasPrice.toString(16)}`, gas: '0x5208' }
    await rpc(source.rpcUrl, 'anvil_dropAllTransactions')
    await rpc(source.rpcUrl, 'eth_sendTransaction', [replacement])
    await mineAndResume(source.rpcUrl)
    if (kind === 'repriced') {
      await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
    } else {
      await expect(page.getByRole('heading', { name: 'The deposit was cancelled' })).toBeVisible({ timeout: 60_000 })
      await expect(page.getByText(/nothing was deposited/)).toBeVisible()
    }
    expect(wallet.signatures()).toBe(3) // the wallet check (the kit's sign-in message, once per wallet), approve, deposit
  })
}

test('a dropped transaction is shown as not found with help, and never resent @extended', async ({ page }) => {
  const { wallet, source } = await sentAndHeld(page, 6, '3')
  const hash = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').txHash, keptKey(stack, 'stablecoin-widget:v1:flow:deposit'))
  await rpc(source.rpcUrl, 'anvil_dropTransaction', [hash])
  await rpc(source.rpcUrl, 'evm_setAutomine', [true])
  await expect(page.getByText(/cannot find this transaction/)).toBeVisible({ timeout: 40_000 })
  const signatures = wallet.signatures()
  await page.getByRole('button', { name: /stop following it/ }).click()
  await expect(page.getByRole('heading', { name: 'The transaction was not sent' })).toBeVisible()
  expect(wallet.signatures()).toBe(signatures)
  expect(await page.evaluate((key) => localStorage.getItem(key), keptKey(stack, 'stablecoin-widget:v1:flow:deposit'))).toBeNull()
})
