import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { expect, expectNothing, keptKey, quietSpan, test } from './helpers'
import { connectAndVerify, fillSepa } from './payoutSteps'
import { SANDBOX_ORIGIN, SECOND_PARTNER, type StackConfig } from './stack'
import { TestWallet } from './testWallet'

// Issue 28, finding 4: every partner's hosted page runs on the widget's one origin, so they share
// one storage. Partner A's buyer leaves a payout past its point of no return; the same browser then
// opens partner B's payout link (the sandbox build's second partner: the same service, the same
// backend, links signed with the same key; only the partner id differs). Nothing of A's may be
// shown, resumed or sent by B's page; A's own link still resumes it.
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const payoutUrl = (stack: StackConfig, partner: string) => demoUrl({ ...stack, partner }, `${SANDBOX_ORIGIN}/`, 'payout', {})

test("partner B's payout link after partner A's unfinished payout: nothing of A's is resumed, shown or sent", async ({ page, stack, sandbox }) => {
  const wallet = TestWallet.forStack(stack, 4)
  await wallet.install(page)

  // Partner A: a new buyer quotes, connects the wallet, verifies and creates a payout (past its point of no return), then leaves.
  await page.goto(payoutUrl(stack, stack.partner))
  await expect(h1(page)).toHaveText('Cash out to a bank account')
  await page.getByLabel('Arrives in the bank', { exact: true }).fill('20')
  await page.getByLabel('Country of the bank').selectOption('DE')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your cash-out')
  await connectAndVerify(page)
  await fillSepa(page)
  await page.getByRole('button', { name: 'Create the payout' }).click()
  await expect(h1(page)).toHaveText('Send the stablecoins')

  // What A's page kept, read as A's page stores it.
  const kept = await page.evaluate(
    ([account, payout]) => ({ account: JSON.parse(localStorage.getItem(account) ?? '{}'), payout: JSON.parse(localStorage.getItem(payout) ?? '{}') }),
    [keptKey(stack, 'stablecoin-widget:v1:flow:account'), keptKey(stack, 'stablecoin-widget:v1:flow:payout')] as const,
  )
  const [record] = kept.payout.records as Array<{ id: string; depositAddress: string }>
  const secrets: string[] = [kept.account.accountId, kept.account.walletId, record.id, record.depositAddress.toLowerCase()]
  expect(secrets.every((s) => typeof s === 'string' && s.length > 3)).toBe(true)

  // A's page leaves first: its own status polls, in flight as it unloads, are A's page's, not B's.
  await page.goto('about:blank')
  // Partner B's link, in the same browser, on the same origin: every request and event is watched.
  const seen: string[] = []
  page.on('request', (request) => seen.push(`${request.method()} ${request.url()} ${request.postData() ?? ''}`))
  await page.exposeFunction('__partnerEvent', (detail: unknown) => seen.push(`event ${JSON.stringify(detail)}`))
  await page.addInitScript(() =>
    window.addEventListener('stablecoin-widget', (e) => (window as unknown as { __partnerEvent(d: unknown): void }).__partnerEvent((e as CustomEvent).detail)),
  )
  await page.goto(payoutUrl(stack, SECOND_PARTNER))
  // B's buyer is not A's: the anonymous price, no "Not you?" naming A's wallet, no payout resumed.
  // (B has no registry defaults: USD, whose rails land in banks or a wallet, so the form says "Cash out".)
  await expect(h1(page)).toHaveText('Cash out')
  await expect(page.getByRole('button', { name: 'Not you? Start over' })).toHaveCount(0)
  await expect(page.getByText(record.depositAddress)).toHaveCount(0)
  const ofA = () => seen.filter((line) => secrets.some((s) => line.toLowerCase().includes(s.toLowerCase())))
  await expectNothing(ofA, await quietSpan(sandbox, 'bankPollMs'), "requests or events of partner B's page carrying partner A's ids")
  expect(seen.some((line) => line.startsWith('event '))).toBe(true)

  // A's own link resumes A's payout: the record was kept for A, only hidden from B.
  await page.goto(payoutUrl(stack, stack.partner))
  await expect(h1(page)).toHaveText('Send the stablecoins')
  await expect(page.getByText(record.depositAddress, { exact: true })).toBeVisible()
})

// Issue 31, item 5: a returning buyer on a new device. The partner's server signs the buyer's known
// accountId and walletId, with the wallet they were made for, into the link: the bank payout starts
// with that buyer, and no identity step comes first. An unsigned link carrying them does not start.
test('a link signing a returning buyer opens the payout without identity steps; unsigned, or half a buyer, it does not start @extended', async ({
  page,
  stack,
}) => {
  const wallet = stack.accounts[5]
  const expires = String(Math.floor(Date.now() / 1000) + 600)
  const buyer = { accountId: 'acc_returning', walletId: 'wal_returning', walletAddress: wallet, expires }
  // Any identity step the page draws, at any moment, is noted (the payout's own screens may change order).
  await page.addInitScript(() => {
    const w = window as unknown as { identitySteps: number }
    w.identitySteps = 0
    new MutationObserver(() => {
      if (/Verify with our identity partner|Where should your stablecoins go\?/.test(document.body?.innerText ?? '')) w.identitySteps++
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })

  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', buyer))
  // The header says whose verified account this is.
  await expect(page.getByText(`Cashing out with the verified account of wallet ${wallet}.`)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Not you? Start over' })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { identitySteps: number }).identitySteps)).toBe(0)
  // Kept on this device as a freshly onboarded account.
  const kept = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}'), keptKey(stack, 'stablecoin-widget:v1:flow:account'))
  expect(kept).toMatchObject({ accountId: 'acc_returning', walletId: 'wal_returning', wallet })

  // The same buyer without the partner's signature: the link does not start.
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', buyer, { sign: false }))
  await expect(h1(page)).toHaveText('This payment link was changed or has expired')
  // Signed, but half a buyer (an accountId without its walletId): not a valid link.
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'payout', { accountId: 'acc_returning', walletAddress: wallet, expires }))
  await expect(h1(page)).toHaveText('This payment link is not valid')
  await expect(page.getByRole('button')).toHaveCount(0)
})
