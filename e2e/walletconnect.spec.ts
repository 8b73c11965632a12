import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { type StackConfig, WALLETCONNECT_PARTNER, destBalance, stackConfig, widgetUrl } from './stack'

// A phone wallet over WalletConnect, offline: the stack's own relay and the sandbox's phone wallet
// (test/sandbox/walletconnect/), driven through its control API as a buyer's thumb would.
let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})

async function phone(path: string, body: unknown = {}) {
  const response = await fetch(`${stack.walletConnect.phoneWallet}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`phone ${path}: ${response.status} ${await response.text()}`)
  return response.json()
}
const phoneState = async () => (await fetch(`${stack.walletConnect.phoneWallet}/state`)).json()

test.afterEach(async () => {
  await phone('/disconnect').catch(() => {})
  await phone('/mode', { mode: 'hold' })
})

/** Picks WalletConnect and pairs the phone with the code the widget shows (read by its copy button). */
async function pairPhone(page: Page) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto(widgetUrl(stack, { partner: WALLETCONNECT_PARTNER }))
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  await page.getByRole('button', { name: /WalletConnect/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet on your phone' })
  await expect(dialog.getByRole('img', { name: 'WalletConnect pairing code' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Copy Pairing link' }).click()
  await expect(dialog.getByText('Pairing link copied')).toBeVisible()
  const uri = await page.evaluate(() => navigator.clipboard.readText())
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await phone('/pair', { uri })
  return dialog
}

test('a deposit through WalletConnect: paired by QR code, the wallet link signed and the deposit sent on the phone', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  const before = await destBalance(stack, stack.walletConnect.phoneAccount)
  const dialog = await pairPhone(page)
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await page.getByLabel('Amount').fill('3')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(page.getByRole('heading', { name: 'Check your deposit' })).toBeVisible()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(page.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  expect(await destBalance(stack, stack.walletConnect.phoneAccount)).toBeGreaterThan(before)
  const answered = (await phoneState()).answered as Array<{ method: string; outcome: string }>
  expect(answered.map((a) => a.method)).toEqual(expect.arrayContaining(['personal_sign', 'eth_sendTransaction']))
  expect(answered.filter((a) => a.outcome !== 'approved')).toEqual([])
})

test('the session survives a reload: WalletConnect picked again connects without a new code', async ({ page }) => {
  await phone('/mode', { mode: 'auto-approve' })
  await pairPhone(page)
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  const sessions = (await phoneState()).sessions.length
  await page.reload()
  await page.getByRole('button', { name: /WalletConnect/ }).click()
  await expect(page.getByRole('heading', { name: 'How much do you want to deposit?' })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect((await phoneState()).sessions.length).toBe(sessions)
})

test('closing the pairing code and a phone that rejects each leave the buyer a way on', async ({ page }) => {
  const dialog = await pairPhone(page)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  await expect(page.getByText('The connection was declined in your wallet. You can try again.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Connect your wallet' })).toBeFocused()
  // Again, and the phone says no to the session.
  await phone('/mode', { mode: 'auto-reject' })
  await pairPhone(page)
  await expect(page.getByRole('dialog')).toBeHidden({ timeout: 15_000 })
  await expect(page.getByText('The connection was declined in your wallet. You can try again.')).toBeVisible()
  const answered = (await phoneState()).answered as Array<{ method?: string; outcome: string }>
  expect(answered.some((a) => a.outcome === 'rejected')).toBe(true)
})
