import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { expect, expectAxeClean, keptKey, tabTo, test } from './helpers'
import { SANDBOX_ORIGIN, type StackConfig, rpc, sandbox } from './stack'
import { connectAndVerify } from './payoutSteps'
import { TestWallet } from './testWallet'

// The card payout (issue 31): the payout's kernel with a card entered on the card provider's page
// (the sandbox's /card-payout-page on the registry's cardHosts), created from the session that came
// back, funded with one plain ERC-20 transfer on anvil, and followed to the card.
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const cardPayoutUrl = (stack: StackConfig, sign = true) => demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'cardPayout', {}, { sign })

type SandboxCardPayout = {
  id: string
  status: string
  fiatAmount?: string
  internal: { accountId: string; depositAddress: string; depositAmount: string; sender?: string; received?: string }
}
async function cardPayouts(stack: StackConfig, page: Page): Promise<SandboxCardPayout[]> {
  const { accountId } = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { accountId?: string },
    keptKey(stack, 'stablecoin-widget:v1:flow:account'),
  )
  const all = (await sandbox(stack, '/__sandbox/card/payouts')) as { payouts: SandboxCardPayout[] }
  return all.payouts.filter((p) => p.internal.accountId === accountId)
}

async function balance(stack: StackConfig, owner: string): Promise<bigint> {
  const src = stack.chains.find((c) => c.id === 8453)!
  const token = stack.sources.find((s) => s.chainId === 8453)!.token
  const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, '0')}`
  return BigInt((await rpc(src.rpcUrl, 'eth_call', [{ to: token, data }, 'latest'])) as string)
}

const units = (value: string) => {
  const [whole, part = ''] = value.split('.')
  return BigInt(whole) * 10n ** 6n + BigInt(part.padEnd(6, '0'))
}

/** A new buyer prices 20 EUR on a card: the price shows what lands on the card, no rail. `sign`: the link as a partner's server signs it (else as any page may write it). */
async function priced(page: Page, stack: StackConfig, account: number, sign = true) {
  const wallet = TestWallet.forStack(stack, account)
  await wallet.install(page)
  await page.goto(cardPayoutUrl(stack, sign))
  await expect(h1(page)).toHaveText('Cash out to a card')
  await page.getByLabel('Lands on the card', { exact: true }).fill('20')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await expect(page.getByRole('row', { name: /Lands on the card/ })).toContainText('20 EUR')
  await expect(page.getByRole('row', { name: /Rail/ })).toHaveCount(0)
  return wallet
}

/** The wallet that pays, then the identity steps with it: the card step is next. */
async function toCard(page: Page) {
  await connectAndVerify(page)
  await expect(h1(page)).toHaveText('The card that receives the money')
}

/** To the card provider's page and back with a card: the payout is created, funding is next. */
async function withCard(page: Page, stack: StackConfig, keyboard = false) {
  const open = page.getByRole('button', { name: 'Enter the card on the secure page' })
  if (keyboard) {
    await tabTo(page, open)
    await page.keyboard.press('Enter')
  } else await open.click()
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  expect(stack.cardHosts).toContain(new URL(page.url()).host)
  await page.getByRole('button', { name: 'Use this card' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
  // The way back's session is dropped from the address bar: a reload never creates again.
  expect(new URL(page.url()).searchParams.has('cardSession')).toBe(false)
}

/**
 * The transfer from the wallet connected before the round trips (identity, the card page): found
 * again without asking the buyer to choose it, and one way to start over.
 */
async function send(page: Page, wallet: TestWallet) {
  const sendButton = page.getByRole('button', { name: /^Send [\d.]+ USDC$/ })
  await expect(sendButton).toBeVisible()
  await expect(page.getByRole('button', { name: 'Test Wallet' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Start over/ })).toHaveCount(1)
  expect(wallet.prompts().filter((p) => p.method === 'eth_requestAccounts')).toHaveLength(1)
  await sendButton.click()
}

/** What the page logged as a warning or an error, from now on. */
function consoleWarnings(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') seen.push(message.text())
  })
  return seen
}

test('a card payout settles: price, wallet, identity, the card page, one real transfer, paid to the card (sent is not arrival)', async ({
  page,
  stack,
  sandbox: sb,
}) => {
  const warnings = consoleWarnings(page)
  const wallet = await priced(page, stack, 2)
  await expectAxeClean(page, 'card payout quote')
  await toCard(page)
  await expectAxeClean(page, 'card step')
  // The card step with the keyboard alone.
  await expect(h1(page)).toBeFocused()
  await withCard(page, stack, true)
  // The card page's way back (cardSession, result) is the card payout's to read, not an unknown option of the link.
  expect(warnings.filter((w) => w.includes('not an option of a link'))).toEqual([])
  const [created] = await cardPayouts(stack, page)
  await expect(page.getByText(created.internal.depositAddress, { exact: true })).toBeVisible()
  // Each step by hand: `sent` is seen whatever the poll's timing.
  await sandbox(stack, '/__sandbox/control', { payoutHold: true })
  await send(page, wallet)
  await expect(h1(page)).toHaveText('Converting your payout', { timeout: 30_000 })
  await sandbox(stack, '/__sandbox/card/payout/advance', { id: created.id })
  // `sent` is said as on its way, never as arrived.
  await expect(h1(page)).toHaveText('On its way to the card', { timeout: 30_000 })
  await expect(page.getByText(/It has not arrived yet: a card can take from minutes to several working days/)).toBeVisible()
  await sandbox(stack, '/__sandbox/card/payout/advance', { id: created.id })
  await expect(h1(page)).toHaveText('Paid to the card', { timeout: 30_000 })
  await expect(page.getByText('Visa ending in 4242')).toBeVisible()
  // Eight steps for a new buyer, the same count after the card page's round trip (issue 39, item 7).
  await expect(page.getByText('Step 8 of 8')).toBeVisible()
  await expectAxeClean(page, 'card payout settled')
  const [payout] = await cardPayouts(stack, page)
  expect(payout.status).toBe('settled')
  // Exactly depositAmount arrived at the payout's own address, once.
  expect(await balance(stack, payout.internal.depositAddress)).toBe(units(payout.internal.depositAmount))
  expect(payout.internal.received).toBe(payout.internal.depositAmount)
  const sends = wallet.requests.filter((r) => r.method === 'eth_sendTransaction')
  expect(sends).toHaveLength(1)
  const [tx] = sends[0].params as [Record<string, string>]
  expect(tx.data.slice(0, 10)).toBe('0xa9059cbb')
  const log = (await sb.log()).filter((e) => e.method === 'POST' && e.path.startsWith('/partner/card/payout'))
  const count = (p: string) => log.filter((e) => e.path === p).length
  expect([count('/partner/card/payout/quote'), count('/partner/card/payout/card-session'), count('/partner/card/payout')]).toEqual([1, 1, 1])
})

test('an unsigned card-payout link: back from identity to the card payout where the buyer stood, price and wallet kept, paid to the card @extended', async ({
  page,
  stack,
}) => {
  const wallet = await priced(page, stack, 7, false)
  await toCard(page)
  expect(new URL(page.url()).searchParams.get('flow')).toBe('cardPayout')
  // The price came back with the buyer: the card page opens for it.
  await withCard(page, stack)
  const [created] = await cardPayouts(stack, page)
  await expect(page.getByText(created.internal.depositAddress, { exact: true })).toBeVisible()
  await send(page, wallet)
  await expect(h1(page)).toHaveText('Paid to the card', { timeout: 30_000 })
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)

  // The same buyer, known on this device now, cashes out again: one way to start over at the send step.
  // The link opened again shows the ended payout's result first; "New payout" starts the next one.
  await page.goto(cardPayoutUrl(stack, false))
  await expect(h1(page)).toHaveText('Paid to the card')
  await page.getByRole('button', { name: 'New payout' }).click()
  await page.getByLabel('Lands on the card', { exact: true }).fill('20')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await expect(h1(page)).toHaveText('The card that receives the money')
  await withCard(page, stack)
  await expect(page.getByRole('button', { name: /^Send [\d.]+ USDC$/ })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Test Wallet' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Start over/ })).toHaveCount(1)
})

test('an underfunded card payout is paid, with less, and says so @extended', async ({ page, stack }) => {
  await priced(page, stack, 3)
  await toCard(page)
  await withCard(page, stack)
  const [created] = await cardPayouts(stack, page)
  // Less than asked arrives at the payout's address (another wallet's transfer): the service pays what arrived.
  await sandbox(stack, '/__sandbox/card/payout/fund', { id: created.id, amount: '10' })
  await expect(h1(page)).toHaveText('Paid to the card', { timeout: 30_000 })
  await expect(page.getByText(/Less USDC arrived than this payout asked for, so less was paid out/)).toBeVisible()
  const [payout] = await cardPayouts(stack, page)
  expect(payout.status).toBe('settled')
})

test('the card page cancelled: nothing created, nothing sent, the card step again with what happened @extended', async ({ page, stack }) => {
  const wallet = await priced(page, stack, 4)
  await toCard(page)
  await sandbox(stack, '/__sandbox/control', { cardPayoutPage: 'cancel' })
  await page.getByRole('button', { name: 'Enter the card on the secure page' }).click()
  await expect(h1(page)).toHaveText('The card that receives the money')
  await expect(page.getByText('You left the card page without adding a card. Nothing was created and nothing was sent.')).toBeVisible()
  expect(await cardPayouts(stack, page)).toEqual([])
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toEqual([])
  // And the buyer can go on: the page again, a card, the payout.
  await withCard(page, stack)
  expect(await cardPayouts(stack, page)).toHaveLength(1)
})

test('a card payout quote that asks for more than the buyer did is refused before any prompt @extended', async ({ page, stack }) => {
  const wallet = TestWallet.forStack(stack, 5)
  await wallet.install(page)
  await sandbox(stack, '/__sandbox/control', { hostileCardPayout: 'quote.fiat' })
  await page.goto(cardPayoutUrl(stack))
  await page.getByLabel('Lands on the card', { exact: true }).fill('20')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByText('This price pays less onto the card than you asked for. Nothing was sent. Ask for a new price.')).toBeVisible()
  await expect(h1(page)).toHaveText('Cash out to a card')
  expect(wallet.prompts()).toEqual([])
})
