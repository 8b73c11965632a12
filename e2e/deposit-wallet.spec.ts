import { type Page, expect, test } from '@playwright/test'
import { type StackConfig, rpc, sandbox, stackConfig, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

// Wallet trouble is part of the flow: each case ends on a screen that says what to do.
let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})
test.beforeEach(async () => {
  await sandbox(stack, '/__sandbox/reset', {})
})

async function open(page: Page, account: number) {
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

async function quote(page: Page, amount: string) {
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
}

test('a balance too low for the amount is said before anything is sent', async ({ page }) => {
  const wallet = await open(page, 0) // the deployer holds no test USDC
  await quote(page, '12')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText('Your balance is 0 USDC, less than the 12 USDC this deposit needs.')).toBeVisible()
  expect(wallet.signatures()).toBe(0)
  await expect(page.getByRole('button', { name: 'Confirm and send' })).toBeEnabled()
})

test('"request already pending" (-32002) tells the buyer to open the wallet, nothing lost', async ({ page }) => {
  const wallet = await open(page, 7)
  await quote(page, '2')
  wallet.rejectNext('eth_sendTransaction', -32002, 'Request of type eth_sendTransaction already pending')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByText('Your wallet already has a request waiting. Open your wallet to answer it.')).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
})

test('no_route is said plainly, keeps the amount, and is not retried on its own', async ({ page }) => {
  await open(page, 7)
  await page.getByLabel('Amount').fill('600000')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText(/No route can carry this deposit right now/)).toBeVisible()
  await expect(page.getByLabel('Amount')).toHaveValue('600000')
  await page.waitForTimeout(4_000)
  const log = (await sandbox(stack, '/__sandbox/log')) as Array<{ path: string; method: string }>
  expect(log.filter((e) => e.path === '/deposit/quote' && e.method === 'POST')).toHaveLength(1)
})

for (const kind of ['repriced', 'cancelled'] as const) {
  test(`a transaction ${kind} in the wallet is followed: ${kind === 'repriced' ? 'the replacement completes' : 'the flow ends with an explanation'}`, async ({ page }) => {
    const account = kind === 'repriced' ? 8 : 5
    const wallet = await open(page, account)
    const source = stack.chains.find((c) => c.id === 8453)!
    let sent: Record<string, string> | undefined
    wallet.onSend(async (tx) => {
      if (tx.to?.toLowerCase() === stack.depositor.toLowerCase()) {
        sent = tx
        await rpc(source.rpcUrl, 'evm_setAutomine', [false])
      }
    })
    await quote(page, '4')
    await page.getByRole('button', { name: 'Confirm and send' }).click()
    await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
    await page.waitForTimeout(1_500) // a buyer speeds up in the wallet some time after sending
    const from = stack.accounts[account]
    const nonce = (await rpc(source.rpcUrl, 'eth_getTransactionCount', [from, 'latest'])) as string
    const gasPrice = BigInt((await rpc(source.rpcUrl, 'eth_gasPrice')) as string) * 3n
    // The "speed up" or "cancel" a wallet does: the same nonce, a higher price.
    const replacement =
      kind === 'repriced'
        ? { from, to: sent!.to, data: sent!.data ?? sent!.input, value: '0x0', nonce, gasPrice: `0x${gasPrice.toString(16)}`, gas: '0x493e0' }
        : { from, to: from, value: '0x0', nonce, gasPrice: `0x${gasPrice.toString(16)}`, gas: '0x5208' }
    await rpc(source.rpcUrl, 'anvil_dropAllTransactions')
    await rpc(source.rpcUrl, 'eth_sendTransaction', [replacement])
    await rpc(source.rpcUrl, 'evm_mine')
    await rpc(source.rpcUrl, 'evm_setAutomine', [true])
    if (kind === 'repriced') {
      await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
    } else {
      await expect(page.getByRole('heading', { name: 'The deposit was cancelled' })).toBeVisible({ timeout: 60_000 })
      await expect(page.getByText(/nothing was deposited/)).toBeVisible()
    }
    expect(wallet.signatures()).toBe(2)
  })
}

test('a dropped transaction is shown as not found with help, and never resent', async ({ page }) => {
  const wallet = await open(page, 6)
  const source = stack.chains.find((c) => c.id === 8453)!
  wallet.onSend(async (tx) => {
    if (tx.to?.toLowerCase() === stack.depositor.toLowerCase()) await rpc(source.rpcUrl, 'evm_setAutomine', [false])
  })
  await quote(page, '3')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  const hash = await page.evaluate(() => JSON.parse(localStorage.getItem('stablecoin-widget:v1:flow:deposit') ?? '{}').txHash)
  await rpc(source.rpcUrl, 'anvil_dropTransaction', [hash])
  await rpc(source.rpcUrl, 'evm_setAutomine', [true])
  await expect(page.getByText(/cannot find this transaction/)).toBeVisible({ timeout: 40_000 })
  const signatures = wallet.signatures()
  await page.getByRole('button', { name: /stop following it/ }).click()
  await expect(page.getByRole('heading', { name: 'The transaction was not sent' })).toBeVisible()
  expect(wallet.signatures()).toBe(signatures)
  expect(await page.evaluate(() => localStorage.getItem('stablecoin-widget:v1:flow:deposit'))).toBeNull()
})
