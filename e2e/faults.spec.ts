import { type Page, expect, test } from '@playwright/test'
import { setHidden } from './helpers'
import { type LogEntry, type StackConfig, cardUrl, fiatUrl, rpc, sandbox, stackConfig, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

// Faults the widget must survive. Each test ends on its flow's terminal state; the last one
// reports how many faults were injected over the suite.
test.describe.configure({ mode: 'serial' })

let stack: StackConfig
let injected = 0
const terminal: string[] = []
test.beforeAll(() => {
  stack = stackConfig()
})
test.beforeEach(async () => {
  await sandbox(stack, '/__sandbox/reset', {})
})
test.afterEach(async () => {
  const log = (await sandbox(stack, '/__sandbox/log')) as LogEntry[]
  injected += log.filter((e) => e.fault).length
})

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const faults = (list: object[]) => sandbox(stack, '/__sandbox/control', { faults: list })
const posts = async (path: string) => ((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter((e) => e.method === 'POST' && e.path === path)

async function depositPage(page: Page, account: number) {
  const wallet = new TestWallet({
    account: stack.accounts[account],
    rpcUrls: Object.fromEntries(stack.chains.map((c) => [c.id, c.rpcUrl])),
    knownChains: [8453, 42161],
    startChain: 8453,
  })
  await wallet.install(page)
  await page.goto(widgetUrl(stack))
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  return wallet
}

test('500 and 502 bursts and slow answers: the flow offers retry or waits, then completes', async ({ page }) => {
  await depositPage(page, 1)
  await faults([{ kind: '500', count: 1, path: '/deposit/quote' }])
  await page.getByLabel('Amount').fill('2')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText('The service had a problem. Try again in a moment.')).toBeVisible()
  await expect(page.getByLabel('Amount')).toHaveValue('2')
  await faults([{ kind: 'slow', count: 1, delayMs: 3_000, path: '/deposit/quote' }])
  await page.getByRole('button', { name: 'Try again' }).click()
  await expect(h1(page)).toHaveText('Check your deposit', { timeout: 15_000 })
  await faults([
    { kind: '502', count: 2, path: '/deposit/status' },
    { kind: '500', count: 1, path: '/deposit/status' },
    { kind: 'slow', count: 1, delayMs: 4_000, path: '/deposit/status' },
  ])
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 90_000 })
  await expect(page.getByRole('alert')).toHaveCount(0)
  terminal.push('deposit done after 5xx and slow answers')
})

test('malformed and schema-violating answers: a clear error, no crash, and the flow goes on', async ({ page }) => {
  await page.goto(cardUrl(stack))
  await faults([{ kind: 'malformed', count: 1, path: '/card/quote' }])
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(page.getByText('The service answered in a way we did not expect. Try again in a moment.')).toBeVisible()
  await faults([{ kind: 'garbage', count: 1, path: '/card/quote' }])
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(page.getByText('The service answered in a way we did not expect. Try again in a moment.')).toBeVisible()
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(h1(page)).toHaveText('Check your purchase')
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[2])
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(h1(page)).toHaveText('Purchase complete', { timeout: 30_000 })
  terminal.push('card completed after malformed answers')
})

test('offline mid-poll and back: polling resumes and completes', async ({ page, context }) => {
  await depositPage(page, 2)
  await sandbox(stack, '/__sandbox/control', { processingMs: 6_000 })
  await page.getByLabel('Amount').fill('1.5')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText(/Delivering to/)).toBeVisible({ timeout: 30_000 })
  await context.setOffline(true)
  injected += 1
  await page.waitForTimeout(5_000)
  await context.setOffline(false)
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  terminal.push('deposit done after going offline')
})

test('the tab closed after sending, reopened after mining: resumes from the stored hash and signs nothing', async ({ browser }) => {
  const context = await browser.newContext()
  const page = await context.newPage()
  const wallet = await depositPage(page, 3)
  const source = stack.chains.find((c) => c.id === 8453)!
  wallet.onSend(async (tx) => {
    if (tx.to?.toLowerCase() === stack.depositor.toLowerCase()) await rpc(source.rpcUrl, 'evm_setAutomine', [false])
  })
  await page.getByLabel('Amount').fill('2')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Your deposit is on its way')
  const signed = wallet.signatures()
  await page.close()
  injected += 1
  await rpc(source.rpcUrl, 'evm_mine')
  await rpc(source.rpcUrl, 'evm_setAutomine', [true])
  const before = (await posts('/deposit/status')).length
  const again = await context.newPage()
  await wallet.install(again)
  await again.goto(widgetUrl(stack))
  await expect(h1(again)).toHaveText('Deposit delivered', { timeout: 60_000 })
  expect(wallet.signatures()).toBe(signed)
  // The receipt is submitted by the status calls of this one resumed flow, and not after done.
  const after = await posts('/deposit/status')
  expect(after.length - before).toBeGreaterThanOrEqual(1)
  await again.waitForTimeout(4_000)
  expect((await posts('/deposit/status')).length).toBe(after.length)
  await context.close()
  terminal.push('deposit done after the tab was closed and reopened')
})

test('chainChanged and accountsChanged between signing and receipt do not derail the deposit', async ({ page }) => {
  const wallet = await depositPage(page, 4)
  const source = stack.chains.find((c) => c.id === 8453)!
  wallet.onSend(async (tx) => {
    if (tx.to?.toLowerCase() === stack.depositor.toLowerCase()) await rpc(source.rpcUrl, 'evm_setAutomine', [false])
  })
  await page.getByLabel('Amount').fill('1')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Your deposit is on its way')
  wallet.chainId = 42161
  await wallet.emit(page, 'chainChanged', '0xa4b1')
  await wallet.emit(page, 'accountsChanged', [stack.accounts[5]])
  injected += 2
  await rpc(source.rpcUrl, 'evm_mine')
  await rpc(source.rpcUrl, 'evm_setAutomine', [true])
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  terminal.push('deposit done across chainChanged and accountsChanged')
})

test('a double click on every submit button sends one request', async ({ page }) => {
  const wallet = await depositPage(page, 5)
  await page.getByLabel('Amount').fill('1')
  await page.getByRole('button', { name: 'See the price' }).dblclick()
  await expect(h1(page)).toHaveText('Check your deposit')
  await page.getByRole('button', { name: 'Confirm and send' }).dblclick()
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  expect(await posts('/deposit/quote')).toHaveLength(1)
  expect(wallet.signatures()).toBe(2) // one approve, one deposit
  await page.goto(cardUrl(stack))
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).dblclick()
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[5])
  await page.getByRole('button', { name: 'Continue to payment' }).dblclick()
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  expect(await posts('/card/quote')).toHaveLength(1)
  expect(await posts('/partner/card/purchase')).toHaveLength(1)
  terminal.push('double clicks: one request each')
})

test('server strings carrying HTML or script are shown as text', async ({ page }) => {
  const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
  await page.route('**/card/quote', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          headers: { 'Access-Control-Allow-Origin': 'http://127.0.0.1:4173', 'Content-Type': 'application/json' },
          body: JSON.stringify({ error: { code: 'invalid_request', message: `fiatAmount: ${hostile}` } }),
        })
      : route.continue(),
  )
  await page.goto(cardUrl(stack))
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await expect(page.getByText(`The service did not accept this: fiatAmount: ${hostile}`)).toBeVisible()
  expect(await page.locator('.widget img, .widget script').count()).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
  injected += 1
})

test('a hidden tab makes no requests; on its return it catches up with one', async ({ page }) => {
  await page.goto(fiatUrl(stack, { walletAddress: stack.accounts[6], authCode: 'ac_hidden_case' }))
  await sandbox(stack, '/__sandbox/control', { issueAuthCode: 'ac_hidden_case' })
  await page.getByLabel('Full name').fill('Ada Lovelace')
  await page.getByLabel('Email').fill('ada@example.com')
  await page.getByLabel('Mobile phone').fill('+49 151 23456789')
  await page.getByLabel('Nationality').selectOption('DE')
  await page.getByLabel('Country of residence').selectOption('DE')
  await page.getByRole('button', { name: 'Open my account' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  await setHidden(page, true)
  const hiddenAt = Date.now()
  await page.waitForTimeout(20_000)
  const shownAt = Date.now()
  await setHidden(page, false)
  await page.waitForTimeout(3_000)
  const status = await posts('/fiat/status')
  expect(status.filter((e) => e.t > hiddenAt + 1_000 && e.t < shownAt)).toEqual([])
  expect(status.filter((e) => e.t >= shownAt && e.t < shownAt + 3_000)).toHaveLength(1)
  const { virtuals } = (await sandbox(stack, '/__sandbox/fiat')) as { virtuals: Array<[string, unknown]> }
  await sandbox(stack, '/__sandbox/control', { fundAccount: { virtualAccountId: virtuals.at(-1)![0], amount: '5' } })
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 40_000 })
  terminal.push('bank transfer funded after a hidden spell')
})

test('report: faults injected, and every flow reached its terminal state', async () => {
  console.log(`fault suite: ${injected} faults injected; terminal states reached: ${terminal.length} (${terminal.join('; ')})`)
  expect(terminal).toHaveLength(7)
  // 8 sandbox faults, 1 hostile answer, going offline, 2 wallet events, 1 closed tab.
  expect(injected).toBe(13)
})
