import type { Page } from '@playwright/test'
import { encodeFunctionData, erc20Abi } from 'viem'
import { expect, test } from './helpers'
import { type StackConfig, destBalance, rpc, stackConfig, widgetUrl } from './stack'

// A deposit paid by address: no wallet in the page; the buyer sends the ERC-20 transfer from another
// account (here the test, with viem's encoding, over anvil's unlocked dev accounts) to the address
// the widget shows, and the widget finds it on the chain and follows it to the end.
let stack: StackConfig

test.beforeAll(() => {
  stack = stackConfig()
})

const transferAbi = erc20Abi

const source = () => stack.chains.find((c) => c.id === stack.sources[0].chainId)!

/** What the widget shows to pay: the deposit address and the EIP-681 request. */
async function shown(page: Page) {
  await expect(page.getByRole('heading', { name: 'Send exactly 12.5 USDC' })).toBeVisible()
  const address = (await page.locator('.copy-field', { hasText: 'Deposit address' }).locator('.value').textContent())!.trim()
  const request = (await page.locator('.copy-field', { hasText: 'Payment request' }).locator('.value').textContent())!.trim()
  return { address, request }
}

async function startByAddress(page: Page) {
  await page.goto(widgetUrl(stack))
  // The sandbox build lists its own wallet; none is connected here.
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  await page.getByRole('button', { name: 'Send from another wallet or an exchange' }).click()
  await expect(page.getByRole('heading', { name: 'Send from another wallet or an exchange' })).toBeVisible()
  await page.getByLabel('Amount').fill('12.5')
  await page.getByRole('button', { name: 'Show the address' }).click()
}

async function pay(from: string, to: string, units: bigint) {
  const data = encodeFunctionData({ abi: transferAbi, functionName: 'transfer', args: [to as `0x${string}`, units] })
  return (await rpc(source().rpcUrl, 'eth_sendTransaction', [{ from, to: stack.sources[0].token, data }])) as string
}

test('a deposit paid by address from another account, with no wallet in the page, is found on the chain and delivered; a reload during the watch resumes it', async ({
  page,
  sandbox,
}) => {
  await sandbox.control({ quoteStyle: 'address' })
  const treasuryBefore = await destBalance(stack, stack.partnerTreasury)
  await page.goto(widgetUrl(stack))
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  await page.getByRole('button', { name: 'Send from another wallet or an exchange' }).click()
  // The sandbox partner's backend is the kit (walletLink): the buyer is told, before the address,
  // whose deposit it will be, whatever sends it.
  await expect(page.getByText(/This site gives the deposit address to the account you are signed in with on it/)).toBeVisible()
  // It settles at the partner's address (the kit's depositDestination): no address of the buyer's
  // is asked, and the form says where it goes.
  await expect(page.getByText(/The deposit is paid to this site, not to an address of yours/)).toBeVisible()
  await expect(page.getByLabel(/Your address to receive/)).toHaveCount(0)
  await expect(page.getByRole('textbox')).toHaveCount(1)
  await page.getByLabel('Amount').fill('12.5')
  const asking = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/deposit/address'))
  await page.getByRole('button', { name: 'Show the address' }).click()
  // No sender named: the kit forwards the partner's own address as the sender (docs/assumptions.md).
  expect((await asking).postDataJSON().source).not.toHaveProperty('address')
  const { address, request } = await shown(page)
  await expect(page.getByText(/This address was given to your account on this site/)).toBeVisible()
  // The kit asked for it (with the key) and recorded it to the buyer before the widget showed it.
  expect(await sandbox.posts('/partner/deposit/address')).toMatchObject([{ status: 200 }])
  expect(request).toBe(`ethereum:${stack.sources[0].token}@${stack.sources[0].chainId}/transfer?address=${address}&uint256=12500000`)
  await expect(page.getByRole('img', { name: /QR code of this payment request/ })).toBeVisible()
  await expect(page.getByText(/Send within \d+:\d\d/)).toBeVisible()

  // A reload while it watches: the same address, watched on (nothing asked again).
  await page.reload()
  expect((await shown(page)).address).toBe(address)

  // Another amount first: said, never followed.
  await pay(stack.accounts[6], address, 1_000_000n)
  await expect(page.getByText(/A transfer of 1 USDC arrived at this address/)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Send exactly 12.5 USDC' })).toBeVisible()

  const hash = await pay(stack.accounts[6], address, 12_500_000n)
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  const log = await sandbox.log()
  expect(log.some((e) => e.path === '/deposit/status' && e.status === 200)).toBe(true)
  // Sent from an account nobody linked (an exchange's, say), it is the buyer's at the kit: recorded, not refused.
  await expect.poll(async () => (await sandbox.posts('/partner/deposit/sent')).map((p) => p.status)).toEqual([200])
  await expect(page.getByText('If the shop does not show this payment, contact the shop with this transaction.')).toHaveCount(0)
  // Delivered to the partner's treasury (its kit's depositDestination), less the fee: the deposit
  // the partner credits pays the partner.
  expect((await destBalance(stack, stack.partnerTreasury)) - treasuryBefore).toBe(12_487_500n)
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
})

test('a quote that needs a contract call and an approval is not offered to pay by address, and says why @extended', async ({ page, sandbox }) => {
  await sandbox.control({ quoteStyle: 'contract' })
  await startByAddress(page)
  await expect(page.getByText(/This price needs an approval from the paying wallet/)).toBeVisible()
  await expect(page.getByText('Deposit address', { exact: true })).toHaveCount(0)
})
