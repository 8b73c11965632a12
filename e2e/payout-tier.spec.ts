import type { Page, Request } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { expect, keptKey, test } from './helpers'
import { type Buyer, arrangeBuyer, connectAndVerify, fillSepa, fund, quote, sandboxPayouts, usdcBalance, usdcUnits, waitSettled } from './payoutSteps'
import { SANDBOX_ORIGIN, sandbox as sandboxApi } from './stack'
import { TestWallet } from './testWallet'

// Issue 31, item 4: the service asks a higher verification tier (422 requires_action) when the
// payout is created. The buyer verifies again (tier=higher), comes back with everything typed, and
// the same request goes again under the same idempotency reference: one payout, funded once.

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const REQUIRES_ACTION = 'Your verification level does not allow this payment. Complete a higher level of verification, then try again.'
/** The applicant's name: not fillDetails's default, so a prefilled field is this buyer's own. */
const APPLICANT = 'Grace Hopper'
const IBAN = 'DE89 3704 0044 0532 0130 00'

/** Every creation the page asks of the partner backend at `path`: the body sent, and the status answered. */
function creations(page: Page, path: string) {
  const seen: Array<{ body: Record<string, unknown>; status: Promise<number | undefined> }> = []
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== path) return
    seen.push({ body: request.postDataJSON() as Record<string, unknown>, status: request.response().then((r) => r?.status()) })
  })
  return seen
}

/**
 * The service's words on the identity step, its link asking the higher tier, and nothing said that
 * is not true of it (a returning customer is asked again here). Verified there, only what the higher
 * tier needs was asked: the details typed the first time go again with the new code, no form, and
 * the old refusal is gone from the screen.
 */
async function verifyHigher(page: Page) {
  await expect(h1(page)).toHaveText('Verify your identity')
  await expect(page.getByText(REQUIRES_ACTION)).toBeVisible()
  await expect(page.getByText(/not asked again/)).toHaveCount(0)
  const link = page.getByRole('link', { name: 'Verify with our identity partner' })
  expect(new URL((await link.getAttribute('href'))!).searchParams.get('tier')).toBe('higher')
  await link.click()
  await expect(page.getByText(/higher verification tier/)).toBeVisible()
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1(page)).not.toHaveText('Verify your identity')
  await expect(h1(page)).not.toHaveText('Your details')
  await expect(page.getByText(REQUIRES_ACTION)).toHaveCount(0)
}

/** Two creations, refused (422) then made (200): the same request both times, under the same reference. The two bodies. */
async function expectAskedAgainAsBefore(posts: ReturnType<typeof creations>) {
  expect(posts).toHaveLength(2)
  expect(await Promise.all(posts.map((p) => p.status))).toEqual([422, 200])
  const [first, again] = posts.map((p) => p.body)
  expect(typeof first.reference).toBe('string')
  expect(again.reference).toBe(first.reference)
  expect(again).toEqual(first)
  return [first, again]
}

/** Nothing was asked of the wallet but its connection: no transfer, no signature. */
function expectOnlyConnected({ wallet }: Buyer) {
  expect(wallet.prompts().map((p) => p.method)).toEqual(['eth_requestAccounts'])
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toEqual([])
}

test('a bank payout that needs the higher tier: verified again, nothing typed is lost, the same request under the same reference, one payout @extended', async ({
  page,
  stack,
  sandbox,
}) => {
  const buyer = await arrangeBuyer(page, stack, 4)
  const posts = creations(page, '/partner/bank/payout')
  await sandbox.control({ requiresAction: true })
  await quote(buyer, { currency: 'EUR', country: 'DE', amount: '20' }, 'SEPA Instant')
  await connectAndVerify(page, { name: APPLICANT })
  await fillSepa(page, IBAN)
  await page.getByRole('button', { name: 'Create the payout' }).click()

  await verifyHigher(page)
  await expect(h1(page)).toHaveText('Who receives the money?')
  await expect(page.getByLabel('IBAN')).toHaveValue(IBAN)
  await expect(page.getByLabel('Last name')).toHaveValue('Lovelace')
  expect(await sandboxPayouts(buyer)).toEqual([])
  expectOnlyConnected(buyer)
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')

  // Refused once, then created: the same request, under the same reference.
  const [first, again] = await expectAskedAgainAsBefore(posts)
  expect(again.beneficiary).toEqual(first.beneficiary)
  expectOnlyConnected(buyer)

  const [created] = await sandboxPayouts(buyer)
  await fund(buyer)
  await waitSettled(buyer)
  const payouts = await sandboxPayouts(buyer)
  expect(payouts).toHaveLength(1)
  expect(payouts[0].id).toBe(created.id)
  expect(payouts[0].status).toBe('settled')
  expect(payouts[0].internal.beneficiary.IBAN).toBe('DE89370400440532013000')
  expect(await usdcBalance(stack, payouts[0].internal.depositAddress)).toBe(usdcUnits(payouts[0].internal.depositAmount))
  expect(buyer.wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)
})

type CardPayout = { id: string; status: string; internal: { accountId: string; depositAddress: string; depositAmount: string } }
/** The buyer's card payouts as the sandbox holds them (its inspection route). */
async function cardPayouts({ page, stack }: Buyer): Promise<CardPayout[]> {
  const { accountId } = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { accountId?: string },
    keptKey(stack, 'stablecoin-widget:v1:flow:account'),
  )
  const all = (await sandboxApi(stack, '/__sandbox/card/payouts')) as { payouts: CardPayout[] }
  return all.payouts.filter((p) => p.internal.accountId === accountId)
}

test('a card payout that needs the higher tier: verified again after the card page, the same card session under the same reference, one payout @extended', async ({
  page,
  stack,
  sandbox,
}) => {
  const wallet = TestWallet.forStack(stack, 6)
  await wallet.install(page)
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'cardPayout'))
  await expect(h1(page)).toHaveText('Cash out to a card')
  const buyer: Buyer = { page, stack, wallet, account: stack.accounts[6] }
  const posts = creations(page, '/partner/card/payout')
  await sandbox.control({ requiresAction: true })
  await page.getByLabel('Currency paid out').selectOption('EUR')
  await page.getByLabel('Lands on the card', { exact: true }).fill('20')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await connectAndVerify(page, { name: APPLICANT })
  await expect(h1(page)).toHaveText('The card that receives the money')
  await page.getByRole('button', { name: 'Enter the card on the secure page' }).click()
  await expect(h1(page)).toHaveText('Sandbox card page')
  // Back from the card page, the payout is created with the card: the service asks the higher tier.
  await page.getByRole('button', { name: 'Use this card' }).click()

  await verifyHigher(page)
  await expect(h1(page)).toHaveText('The card that receives the money')
  await expect(page.getByText('Card added. Create the payout to go on.')).toBeVisible()
  expect(await cardPayouts(buyer)).toEqual([])
  expectOnlyConnected(buyer)
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')

  const [first, again] = await expectAskedAgainAsBefore(posts)
  expect(typeof first.cardSession).toBe('string')
  expect(again.cardSession).toBe(first.cardSession)
  expectOnlyConnected(buyer)

  const [created] = await cardPayouts(buyer)
  await fund(buyer)
  await expect(h1(page)).toHaveText('Paid to the card', { timeout: 30_000 })
  const payouts = await cardPayouts(buyer)
  expect(payouts).toHaveLength(1)
  expect(payouts[0].id).toBe(created.id)
  expect(payouts[0].status).toBe('settled')
  expect(await usdcBalance(stack, payouts[0].internal.depositAddress)).toBe(usdcUnits(payouts[0].internal.depositAmount))
  expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(1)
})
