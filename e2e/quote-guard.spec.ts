import type { Page } from '@playwright/test'
import { expect, expectAxeClean, keptKey, test } from './helpers'
import { type StackConfig, rpc, sandbox, stackConfig, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

// Issue 14: the wallet is never asked to sign what the buyer did not ask for.
let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})
test.beforeEach(async () => {
  await sandbox(stack, '/__sandbox/control', { processingMs: 200 })
})

// Every rule the sandbox can break (its HOSTILE_RULES), each one a rule of the widget's guard.
const RULES = [
  'chain',
  'amount',
  'value',
  'target',
  'approval.token',
  'approval.amount',
  'approval.spender',
  'transfer.token',
  'transfer.amount',
  'transfer.from',
  'data.approve',
] as const

async function open(page: Page, account: number, options: { batching?: boolean } = {}) {
  const wallet = TestWallet.forStack(stack, account, options)
  await wallet.install(page)
  await page.goto(widgetUrl(stack))
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  return wallet
}

async function askPrice(page: Page, amount: string) {
  await page.getByLabel('Amount').fill(amount)
  await page.getByRole('button', { name: 'See the price' }).click()
}

async function confirmToDone(page: Page) {
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
  await expect(page.getByText(/network fee about/)).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
}

const REFUSED = 'We could not check this price, so nothing was sent. Get a new price to continue.'

// One test per rule, so the workers share them; each on a fresh sandbox and a fresh wallet.
for (const rule of RULES) {
  test(`a hostile quote (${rule}) is refused with no wallet prompt; a fresh quote then completes${rule === RULES[0] ? '' : ' @extended'}`, async ({ page }) => {
    const wallet = await open(page, 8)
    const promptsBefore = wallet.prompts().length // connecting asked for the accounts
    await sandbox(stack, '/__sandbox/control', { hostileQuote: rule })
    await askPrice(page, '4')
    await expect(page.getByText(REFUSED)).toBeVisible()
    await expect(page.getByText(`Code: quote_rejected`)).toBeVisible()
    // Not one request that opens the wallet: no signature, no network switch.
    expect(wallet.prompts().slice(promptsBefore)).toEqual([])
    expect(wallet.signatures()).toBe(0)
    await page.getByRole('button', { name: 'Get a new price' }).click()
    await confirmToDone(page)
    await page.getByRole('button', { name: 'Start a new deposit' }).click()
    await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
    // Three for the completed deposit (the wallet check, then approve and deposit: this wallet cannot batch), none for the refused quote.
    expect(wallet.signatures()).toBe(3)
  })
}

test('the refusal is axe-clean and sends an error event with quote_rejected and the rule @extended', async ({ page }) => {
  const errors: unknown[] = []
  await page.exposeFunction('__widgetError', (detail: unknown) => errors.push(detail))
  await page.addInitScript(() => {
    window.addEventListener('stablecoin-widget', (e) => {
      const d = (e as CustomEvent<{ name?: string; payload?: unknown }>).detail
      if (d?.name === 'error') (window as unknown as { __widgetError: (p: unknown) => void }).__widgetError(d.payload)
    })
  })
  const wallet = await open(page, 8)
  await sandbox(stack, '/__sandbox/control', { hostileQuote: 'approval.amount' })
  await askPrice(page, '3')
  await expect(page.getByText(REFUSED)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Get a new price' })).toBeFocused()
  await expectAxeClean(page, 'refused quote')
  expect(wallet.signatures()).toBe(0)
  await expect
    .poll(() => errors)
    .toContainEqual(expect.objectContaining({ flow: 'deposit', code: 'quote_rejected', detail: 'approval.amount', message: REFUSED }))
})

test('the preview shows exactly what leaves the wallet @extended', async ({ page }) => {
  await open(page, 8)
  await askPrice(page, '25')
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
  await expect(page.getByText(/^25 USDC \+ network fee about 0\.0\d+ ETH$/)).toBeVisible()
  await expectAxeClean(page, 'quote with its preview')
})

test('a quote whose simulation takes more than the amount is blocked before the wallet opens @extended', async ({ page }) => {
  const wallet = await open(page, 8)
  // A standing allowance from an earlier session: a quote without an approval could pull more than asked.
  const source = stack.chains.find((c) => c.id === 8453)!
  const approve = `0x095ea7b3${stack.depositor.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`
  await rpc(source.rpcUrl, 'eth_sendTransaction', [{ from: stack.accounts[8], to: stack.sources[0].token, data: approve }])
  try {
    await sandbox(stack, '/__sandbox/control', { hostileQuote: 'simulation.outflow' })
    await askPrice(page, '2')
    await expect(
      page.getByText(/The simulation shows this deposit would take 4 USDC from your wallet, not the 2 USDC you asked for\. Nothing was sent\./),
    ).toBeVisible()
    expect(wallet.signatures()).toBe(0)
    await page.getByRole('button', { name: 'Get a new price' }).click()
    await confirmToDone(page)
  } finally {
    const reset = `0x095ea7b3${stack.depositor.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}`
    await rpc(source.rpcUrl, 'eth_sendTransaction', [{ from: stack.accounts[8], to: stack.sources[0].token, data: reset }])
  }
})

test('a simulated revert is said in plain words and nothing is sent @extended', async ({ page }) => {
  const wallet = await open(page, 8)
  await sandbox(stack, '/__sandbox/control', { hostileQuote: 'simulation.revert' })
  await askPrice(page, '2')
  await expect(page.getByText(/The network would refuse this deposit \(it says: “allowance”\)\. Nothing was sent\./)).toBeVisible()
  expect(wallet.signatures()).toBe(0)
})

test('a batching wallet (EIP-5792) confirms once, and a reload mid-batch resumes with no second prompt @extended', async ({ page }) => {
  const wallet = await open(page, 8, { batching: true })
  await askPrice(page, '6')
  await expect(page.getByText(/network fee about/)).toBeVisible()
  wallet.holdBatches()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  expect(wallet.batchRequests()).toHaveLength(1)
  expect(wallet.signatures()).toBe(2) // the wallet check (the kit's sign-in message, once per wallet), then one batch
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  await expect(page.getByText(/Waiting for your wallet to send the deposit/)).toBeVisible()
  await wallet.releaseBatches()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(wallet.signatures()).toBe(2)
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(0)
  const calls = (wallet.batchRequests()[0].params as [{ calls: Array<{ to: string }> }])[0].calls
  expect(calls.map((c) => c.to.toLowerCase())).toEqual([stack.sources[0].token.toLowerCase(), stack.depositor.toLowerCase()])
})

test('a wallet without batching still takes the two steps of today @extended', async ({ page }) => {
  const wallet = await open(page, 8)
  await askPrice(page, '1.5')
  await confirmToDone(page)
  expect(wallet.requests.map((r) => r.method)).toContain('wallet_getCapabilities')
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(2)
  expect(wallet.signatures()).toBe(3) // the wallet check (the kit's sign-in message, once per wallet), approve, deposit
})

test('a tracked transaction on a chain the widget cannot read says so and lets the buyer stop following @extended', async ({ page }) => {
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(e.message))
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  await page.addInitScript(
    (key) => {
      localStorage.setItem(
        key,
        JSON.stringify({
          provider: 'sandbox-relay',
          chainId: 999999,
          txHash: `0x${'ab'.repeat(32)}`,
          summary: { amountIn: '5', amountOut: '4.99', fee: '0.01', sourceChainId: 999999, destChainId: 42161, sourceSymbol: 'USDC', destSymbol: 'USDC' },
          createdAt: Date.now(),
        }),
      )
    },
    keptKey(stack, 'stablecoin-widget:v1:flow:deposit'),
  )
  await page.goto(widgetUrl(stack))
  await expect(page.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
  await expect(page.getByText(/We cannot read Chain 999999 from here/)).toBeVisible()
  await expectAxeClean(page, 'unreadable chain')
  await page.getByRole('button', { name: 'Stop following this transaction' }).click()
  await expect(page.getByRole('heading', { name: 'We stopped following this deposit' })).toBeVisible()
  expect(problems).toEqual([])
})
