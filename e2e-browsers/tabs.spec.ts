// Two tabs of one buyer on one deposit (Web Locks, storage events): only one sends, the other says
// so and follows. The twin of the two-tab test of e2e/faults.spec.ts, with the sandbox wallet.
import { type StackConfig, rpc, widgetUrl } from '../e2e/stack'
import type { XPage } from './driver'
import { expect, test } from './fixtures'

const SANDBOX_WALLET = 9

/** The deposits (calls to the depositor) the sandbox wallet sent on the source chain since block `from`. */
async function depositsSince(stack: StackConfig, from: number) {
  const url = stack.chains.find((c) => c.id === 8453)!.rpcUrl
  const last = Number(await rpc(url, 'eth_blockNumber'))
  let sent = 0
  for (let n = from + 1; n <= last; n++) {
    const block = (await rpc(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true])) as { transactions: Array<{ from: string; to: string }> }
    sent += block.transactions.filter(
      (t) => t.from.toLowerCase() === stack.accounts[SANDBOX_WALLET].toLowerCase() && t.to?.toLowerCase() === stack.depositor.toLowerCase(),
    ).length
  }
  return sent
}

test('two tabs of one deposit: only one sends, the other says so and follows it to delivered', async ({ context, stack, sandbox }) => {
  // Delivery held long enough to see both tabs follow the one deposit.
  await sandbox.control({ processingMs: 5_000 })
  const source = stack.chains.find((c) => c.id === 8453)!.rpcUrl
  const from = Number(await rpc(source, 'eth_blockNumber'))
  const tabs = [await context.newPage(), await context.newPage()]
  const h1 = (page: XPage) => page.getByRole('heading', { level: 1 })
  for (const page of tabs) {
    await page.goto(widgetUrl(stack))
    await page.getByRole('button', { name: 'Sandbox wallet' }).click()
    await page.getByLabel('Amount').fill('1')
    await page.getByRole('button', { name: 'See the price' }).click()
    await expect(h1(page)).toHaveText('Check your deposit')
  }
  // Both at once. A tab that already adopted the other's send has no button left to press.
  const press = (page: XPage) =>
    page
      .getByRole('button', { name: 'Confirm and send' })
      .click({ timeout: 5_000 })
      .catch(() => undefined)
  const presses = Promise.all(tabs.map(press))
  // The tab that did not send waits for the other's whole send (its lock) before it adopts it: on a
  // loaded 2-core machine, with both engines running, WebKit once took over 30 s (a CI run, 2026-11-25).
  for (const page of tabs) await expect(h1(page)).toHaveText('Your deposit is on its way', { timeout: 60_000 })
  await presses
  const elsewhere = async () => (await tabs[0].getByText(/followed in another tab/).count()) + (await tabs[1].getByText(/followed in another tab/).count())
  await expect.poll(elsewhere).toBe(1)
  for (const page of tabs) await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  expect(await depositsSince(stack, from)).toBe(1)
})
