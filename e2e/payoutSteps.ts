import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { detailsAfterProvider, expect, fillSepa, keptKey } from './helpers'

export { fillSepa }
import { SANDBOX_ORIGIN, type StackConfig, rpc, sandbox } from './stack'
import { TestWallet } from './testWallet'

// The bank payout's steps as a buyer takes them, one small function each, so a spec says what it
// pays out and to whom, and only this file knows the order of the screens. Price first: form →
// quote → the wallet that pays → identity (a new buyer, with that wallet) → beneficiary → funding →
// tracking.

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

/** Every currency a payout case needs, offered by the link (a buyer-facing option). */
const CURRENCIES = 'EUR,USD,GBP,BRL,MXN,NGN'

export type Buyer = { page: Page; stack: StackConfig; wallet: TestWallet; account: string }

/** A new buyer whose wallet is anvil's account `account`, at the payout form (nothing personal asked yet). */
export async function arrangeBuyer(page: Page, stack: StackConfig, account: number): Promise<Buyer> {
  const wallet = TestWallet.forStack(stack, account)
  await wallet.install(page)
  const address = stack.accounts[account]
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', { currencies: CURRENCIES }))
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  return { page, stack, wallet, account: address }
}

/** What the buyer asks on the form: the fiat that must arrive, where, and the rail when they force one (its name as the form shows it). */
export type Ask = { currency: string; country: string; amount: string; rail?: string }

/** The form filled and priced: the quote is on screen, on `expectRail` (the quote's rail row). */
export async function quote({ page }: Buyer, ask: Ask, expectRail: string) {
  await page.getByLabel('Currency paid out').selectOption(ask.currency)
  // The fields by id: their labels name where the money lands, which the currency's rails decide (issue 39, item 17).
  await page.locator('#payout-amount').fill(ask.amount)
  await page.locator('#payout-country').selectOption(ask.country)
  // The rails come with the limits; a forced one is chosen by its name.
  if (ask.rail) await page.getByLabel('Payment rail').selectOption({ label: ask.rail })
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await expect(page.getByRole('row', { name: /Arrives in the/ })).toContainText(ask.currency)
  await expect(page.getByRole('row', { name: /Rail/ })).toContainText(expectRail)
}

/** The identity steps with the wallet just connected (its address is never typed): verify, then the details (overrides per field). */
export async function verify(page: Page, details: Partial<Record<string, string>> = {}) {
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await detailsAfterProvider(page, details)
}

/** From the price, a new buyer: the wallet that pays, then the identity steps with it (the price is kept through them). */
export async function connectAndVerify(page: Page, details: Partial<Record<string, string>> = {}) {
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(h1(page)).toHaveText('Connect the wallet that pays')
  await page.getByRole('button', { name: 'Test Wallet' }).click()
  await verify(page, details)
}

/** One beneficiary field as the buyer fills it: typed, or chosen from a list (by value). */
export type FieldInput = { label: string; value: string; choose?: boolean }

/**
 * From the quote to the beneficiary's form, which names the one kind of account the quote's rail
 * takes (`paidTo`), every field filled, and the payout created: funding is next.
 */
export async function beneficiary({ page }: Buyer, paidTo: string, fields: readonly FieldInput[]) {
  await connectAndVerify(page)
  await expect(h1(page)).toHaveText('Who receives the money?')
  await expect(page.getByText(/^Paid to:/)).toHaveText(`Paid to: ${paidTo}`)
  for (const f of fields) {
    const input = page.getByLabel(f.label, { exact: true })
    if (f.choose) await input.selectOption(f.value)
    else await input.fill(f.value)
  }
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')
}

/**
 * The funding transfer from the test wallet: one real ERC-20 transfer on anvil. The wallet
 * connected before the identity provider's round trip is found again: the buyer is not asked for it twice.
 */
export async function fund({ page, wallet }: Buyer) {
  const send = page.getByRole('button', { name: /^Send [\d.]+ USDC$/ })
  await expect(send).toBeVisible()
  await expect(page.getByRole('button', { name: 'Test Wallet' })).toHaveCount(0)
  expect(wallet.prompts().filter((p) => p.method === 'eth_requestAccounts')).toHaveLength(1)
  await send.click()
}

/** The sandbox's default path (converting → sent → settled) followed to its end on screen. */
export async function waitSettled({ page }: Buyer) {
  await expect(h1(page)).toHaveText('Paid out', { timeout: 30_000 })
}

export type SandboxPayout = {
  id: string
  status: string
  rail: string
  fiatCurrency: string
  depositTxHash?: string
  internal: { accountId: string; depositAddress: string; depositAmount: string; sender?: string; beneficiary: Record<string, unknown>; purpose?: string }
}

/** The buyer's payouts as the sandbox holds them (its inspection route), beneficiary included. */
export async function sandboxPayouts({ page, stack }: Buyer): Promise<SandboxPayout[]> {
  const { accountId } = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { accountId?: string },
    keptKey(stack, 'stablecoin-widget:v1:flow:account'),
  )
  const all = (await sandbox(stack, '/__sandbox/bank/payouts')) as { payouts: SandboxPayout[] }
  return all.payouts.filter((p) => p.internal.accountId === accountId)
}

/** USDC (base units) held by `owner` on the payout's chain. */
export async function usdcBalance(stack: StackConfig, owner: string): Promise<bigint> {
  const src = stack.chains.find((c) => c.id === 8453)!
  const token = stack.sources.find((s) => s.chainId === 8453)!.token
  const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, '0')}`
  return BigInt((await rpc(src.rpcUrl, 'eth_call', [{ to: token, data }, 'latest'])) as string)
}

export const usdcUnits = (value: string) => {
  const [whole, part = ''] = value.split('.')
  return BigInt(whole) * 10n ** 6n + BigInt(part.padEnd(6, '0'))
}
