import { type BrowserContext, type Page, expect, test } from '@playwright/test'
import { expectAxeClean, setHidden } from './helpers'
import { type LogEntry, type StackConfig, mineAndResume, rpc, sandbox, stackConfig, widgetUrl, SANDBOX_ORIGIN } from './stack'
import { TestWallet } from './testWallet'

// Tests 1–5 share one browser context, as one buyer's browser would, so the check of test 6
// (no 10 s window with more than 5 widget-path requests) holds over their whole run.
test.describe.configure({ mode: 'serial' })

const PAGE_ORIGIN = SANDBOX_ORIGIN
let stack: StackConfig
let context: BrowserContext
const hiddenWindows: Array<[number, number]> = []
let runStartedAt = 0

test.beforeAll(async ({ browser }) => {
  stack = stackConfig()
  await sandbox(stack, '/__sandbox/reset', {})
  context = await browser.newContext()
  runStartedAt = Date.now()
})

test.afterAll(async () => {
  await context?.close()
})

async function openWidget(account: number, options: { knownChains?: number[]; startChain?: number } = {}) {
  const wallet = TestWallet.forStack(stack, account, options)
  const page = await context.newPage()
  await wallet.install(page)
  await page.goto(widgetUrl(stack))
  return { page, wallet }
}

async function destBalance(address: string): Promise<bigint> {
  const data = `0x70a08231${address.slice(2).toLowerCase().padStart(64, '0')}`
  const dest = stack.chains.find((c) => c.id === stack.destination.chainId)!
  return BigInt((await rpc(dest.rpcUrl, 'eth_call', [{ to: stack.destination.token, data }, 'latest'])) as string)
}

async function connectAndQuote(page: Page, amount: string) {
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
}

async function expectNoErrorScreen(page: Page) {
  await expect(page.getByRole('alert')).toHaveCount(0)
}

test('1. a deposit completes to done and the destination balance really grows', async () => {
  const startedAt = Date.now()
  const { page, wallet } = await openWidget(1, { knownChains: [42161], startChain: 42161 })
  const before = await destBalance(stack.accounts[1])
  await connectAndQuote(page, '25.50')
  await expect(page.getByText('You receive')).toBeVisible()
  await expect(page.getByText(/Price held for \d:\d\d/)).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  // The wallet started on another chain that it did not know: 4902, then add, then switch.
  expect(wallet.requests.map((r) => r.method)).toContain('wallet_addEthereumChain')

  // Hidden page: no widget-path request may leave while it is hidden.
  await setHidden(page, true)
  const hiddenFrom = Date.now()
  await page.waitForTimeout(7_000)
  hiddenWindows.push([hiddenFrom + 1_000, Date.now()])
  await setHidden(page, false)

  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  await expect(page.getByText('Delivery transaction')).toBeVisible()
  const after = await destBalance(stack.accounts[1])
  expect(after - before).toBeGreaterThan(25_000_000n)
  expect(after - before).toBeLessThanOrEqual(25_500_000n)
  expect(wallet.signatures()).toBe(2) // approve + deposit
  const requests = ((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter(
    (e) => e.t >= startedAt && e.method === 'POST' && e.path.startsWith('/deposit/'),
  )
  // One quote, then status polls: the first answers pending, the routing layer delivers, then done.
  expect(requests.filter((e) => e.path === '/deposit/quote')).toHaveLength(1)
  console.log(`widget-path requests for one complete deposit: ${requests.length} (${requests.map((e) => e.path.slice(9)).join(', ')})`)
  await page.close()
})

for (const outcome of ['failed', 'expired'] as const) {
  test(`2. a transfer that ends ${outcome} ends on the ${outcome} screen`, async () => {
    const { page } = await openWidget(2)
    await sandbox(stack, '/__sandbox/control', { nextOutcome: outcome })
    await connectAndQuote(page, '3')
    await page.getByRole('button', { name: 'Confirm and send' }).click()
    const title = outcome === 'failed' ? 'The deposit failed' : 'The deposit expired'
    await expect(page.getByRole('heading', { name: title })).toBeVisible({ timeout: 60_000 })
    if (outcome === 'expired') await expect(page.getByText(/refunded automatically/)).toBeVisible()
    else await expect(page.getByText(/were not delivered/)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toHaveCount(0)
    await expectAxeClean(page, `${outcome} screen`)
    await page.close()
  })
}

test('3. the buyer rejects in the wallet, then retries and completes', async () => {
  const { page, wallet } = await openWidget(3)
  await connectAndQuote(page, '10')
  wallet.rejectNext('eth_sendTransaction')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText(/You declined in your wallet/)).toBeVisible()
  // Nothing lost: same screen, same quote, the buyer confirms again.
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Confirm and send' })).toBeEnabled()
  await expectAxeClean(page, 'quote with a wallet rejection')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  await page.close()
})

test('4. a reload during tracking resumes without a second signature and completes', async () => {
  const { page, wallet } = await openWidget(4)
  // Hold the deposit in the mempool so the reload happens before its receipt exists.
  const source = wallet.holdDeposit(stack)
  await connectAndQuote(page, '7.25')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  const signaturesBefore = wallet.signatures()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  await expect(page.getByText(/Waiting for the transaction to confirm/)).toBeVisible()
  await mineAndResume(source.rpcUrl)
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(wallet.signatures()).toBe(signaturesBefore)
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(2)
  await page.close()
})

test('5. under a 429 storm the deposit still completes with no error screen', async () => {
  const { page } = await openWidget(5)
  await connectAndQuote(page, '5')
  await sandbox(stack, '/__sandbox/control', {
    faults: [
      { kind: '429', count: 3, retryAfter: 1 },
      { kind: '429', count: 3 },
    ],
  })
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText('Waiting for the network…')).toBeVisible({ timeout: 30_000 })
  await expectNoErrorScreen(page)
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 90_000 })
  await expectNoErrorScreen(page)
  const log = (await sandbox(stack, '/__sandbox/log')) as LogEntry[]
  expect(log.filter((e) => e.status === 429 && e.t >= runStartedAt).length).toBeGreaterThanOrEqual(6)
  await page.close()
})

test('6. no 10 s window over tests 1–5 held more than 5 widget-path requests, none while hidden', async () => {
  const log = ((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter(
    (e) => e.t >= runStartedAt && e.method !== 'OPTIONS' && e.origin === PAGE_ORIGIN && /^\/(deposit|card|fiat)\//.test(e.path),
  )
  expect(log.length).toBeGreaterThan(20)
  let worst = 0
  for (const entry of log) {
    const inWindow = log.filter((e) => e.t >= entry.t && e.t < entry.t + 10_000).length
    worst = Math.max(worst, inWindow)
  }
  expect(worst).toBeLessThanOrEqual(5)
  expect(hiddenWindows.length).toBe(1)
  for (const [from, to] of hiddenWindows) {
    expect(log.filter((e) => e.t >= from && e.t <= to)).toEqual([])
  }
  console.log(`widget-path requests over tests 1–5: ${log.length}; busiest 10 s window: ${worst}`)
})
