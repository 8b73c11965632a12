import type { Page } from '@playwright/test'
import { encodeFunctionData, erc20Abi } from 'viem'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { expect, expectAxeClean, fillSepa, keptKey, pressByKeyboard, test } from './helpers'
import { verify } from './payoutSteps'
import { SANDBOX_ORIGIN, type StackConfig, rpc, sandbox } from './stack'
import { TestWallet } from './testWallet'

// A payout funded by address (issue 40, item 4): no wallet connected in the page. The funding step
// shows the exact amount, the token, the chain, the payout's address and an EIP-681 request as a QR
// code; the test reads the request, sends that exact transfer from another anvil account (as a phone
// wallet scanning the code would, here with viem's encoding over anvil's unlocked dev accounts), and
// the funding step's watch follows the payout to its end.
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

// A phone: narrow, touch (issue 40, item 3), with no wallet injected in the page.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

type Payout = { id: string; status: string; internal: { accountId: string; depositAddress: string; depositAmount: string; sender?: string } }

async function payouts(stack: StackConfig, page: Page, kind: 'bank' | 'card'): Promise<Payout[]> {
  const { accountId } = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { accountId?: string },
    keptKey(stack, 'stablecoin-widget:v1:flow:account'),
  )
  const all = (await sandbox(stack, `/__sandbox/${kind}/payouts`)) as { payouts: Payout[] }
  return all.payouts.filter((p) => p.internal.accountId === accountId)
}

const source = (stack: StackConfig) => stack.sources.find((s) => s.chainId === 8453)!

/** The request the funding step offers, as its copy button holds it, with the QR code beside it. */
async function offered(page: Page) {
  await expect(page.getByRole('img', { name: /QR code of this payment request/ })).toBeVisible()
  return (await page.locator('.copy-field', { hasText: 'Payment request' }).locator('.value').textContent())!.trim()
}

/** What a wallet app does with an EIP-681 transfer request: that one ERC-20 transfer, from `from`. */
async function payRequest(stack: StackConfig, from: string, request: string) {
  const parsed = /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(request)
  expect(parsed).not.toBeNull()
  const [, token, chainId, to, units] = parsed!
  const chain = stack.chains.find((c) => c.id === Number(chainId))!
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as `0x${string}`, BigInt(units)] })
  return (await rpc(chain.rpcUrl, 'eth_sendTransaction', [{ from, to: token, data }])) as string
}

/** The price connected to no wallet: the buyer picks paying from another wallet or an exchange (by keyboard). */
async function byAddressAtConnect(page: Page) {
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(page)).toHaveText('Connect the wallet that pays')
  await pressByKeyboard(page, page.getByRole('button', { name: 'Send from another wallet or an exchange' }))
}

/** A bank payout of 20 EUR to Germany on a link signed for `owner`, paid from elsewhere at the connect step, created: the funding step is next. */
async function bankPayoutByAddress(page: Page, stack: StackConfig, owner: string) {
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', { walletAddress: owner }))
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  await page.getByLabel('Arrives in the bank', { exact: true }).fill('20')
  await page.getByLabel('Country of the bank').selectOption('DE')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await byAddressAtConnect(page)
  await verify(page)
  await fillSepa(page)
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
}

test('a payout funded by scanning its QR code with another account: no wallet connected in the page, followed to paid out', async ({ page, stack }) => {
  // A link signed for the buyer's wallet (the account's wallet, partner-api.md: accountId); no wallet in the page.
  const owner = stack.accounts[4]
  const payer = stack.accounts[6]
  await bankPayoutByAddress(page, stack, owner)

  const [created] = await payouts(stack, page, 'bank')
  const request = await offered(page)
  const units = BigInt(Math.round(Number(created.internal.depositAmount) * 1e6))
  expect(request).toBe(`ethereum:${source(stack).token}@8453/transfer?address=${created.internal.depositAddress}&uint256=${units}`)
  // The token, the chain and the exact amount, each with its copy button, and what the contract says of another chain.
  await expect(page.locator('.copy-field', { hasText: 'Amount' }).getByRole('button')).toBeVisible()
  await expect(page.locator('.copy-field', { hasText: 'Network' })).toContainText('(8453)')
  await expect(page.getByText(/a transfer on another network does not fund this payout/).first()).toBeVisible()
  await expectAxeClean(page, 'payout funding by address')

  await payRequest(stack, payer, request)
  await expect(h1(page)).toHaveText('Paid out', { timeout: 60_000 })
  const [paid] = await payouts(stack, page, 'bank')
  expect(paid.status).toBe('settled')
  expect(paid.internal.sender?.toLowerCase()).toBe(payer.toLowerCase())
})

test('a card payout funded by its QR code from another account, no wallet in the page @extended', async ({ page, stack }) => {
  const owner = stack.accounts[3]
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'cardPayout', { walletAddress: owner }))
  await expect(h1(page)).toHaveText('Cash out to a card')
  await page.getByLabel('Lands on the card', { exact: true }).fill('20')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await byAddressAtConnect(page)
  await verify(page)
  await expect(h1(page)).toHaveText('The card that receives the money')
  await page.getByRole('button', { name: 'Enter the card on the secure page' }).click()
  await page.getByRole('button', { name: 'Use this card' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  await payRequest(stack, stack.accounts[7], await offered(page))
  await expect(h1(page)).toHaveText('Paid to the card', { timeout: 60_000 })
  const [paid] = await payouts(stack, page, 'card')
  expect(paid.status).toBe('settled')
})

test('offered by address, then a wallet connected: the send waits for the buyer’s word that nothing went another way, then one transfer @extended', async ({
  page,
  stack,
}) => {
  // The buyer chose to pay from elsewhere (an exchange's transfer may be on its way), then connects the account's own wallet.
  const owner = stack.accounts[5]
  const wallet = TestWallet.forStack(stack, 5)
  await wallet.install(page)
  await bankPayoutByAddress(page, stack, owner)

  // The account's wallet is in this page, but the buyer chose to pay from elsewhere: the request
  // shows, and the wallet is not connected on its own; the buyer picks it.
  await offered(page)
  await expect(page.getByText(/^Sending from/)).toHaveCount(0)
  const send = page.getByRole('button', { name: /^Send [\d.]+ USDC$/ })
  const choose = page.getByRole('button', { name: 'Test Wallet' })
  await choose.click()
  await expect(page.getByText(/If you already sent it from another wallet or an exchange, do not send it again/)).toBeVisible()
  await expect(send).toBeDisabled()
  // "Sending from 0x…" wraps on a phone: the page never scrolls sideways (a sideways page put the notice over Send).
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  // A reload keeps the offer: the wallet found again, the send still waits for the buyer's word.
  await page.reload()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  await expect(send.or(choose)).toBeVisible()
  if (await choose.isVisible()) await choose.click()
  await expect(send).toBeDisabled()
  expect(wallet.signatures()).toBe(0)
  await page.getByRole('checkbox', { name: 'I have not sent it from another wallet or an exchange' }).check()
  await send.click()
  await expect(h1(page)).toHaveText('Paid out', { timeout: 60_000 })
  expect(wallet.signatures()).toBe(1)
})
