// The WalletConnect deposit in Firefox ESR and WebKitGTK: the twin of the first test of
// e2e/walletconnect.spec.ts, with the stack's local relay and the sandbox's phone wallet
// (test/sandbox/walletconnect/) driven through its control API.
import { type StackConfig, WALLETCONNECT_PARTNER, destBalance, widgetUrl } from '../e2e/stack'
import type { XPage } from './driver'
import { expect, test } from './fixtures'

const h1 = (page: XPage) => page.getByRole('heading', { level: 1 })

async function phone(stack: StackConfig, path: string, body: unknown = {}) {
  const response = await fetch(`${stack.walletConnect.phoneWallet}${path}`, {
    method: path === '/state' ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: path === '/state' ? undefined : JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`phone ${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

test.afterEach(async ({ stack }) => {
  await phone(stack, '/disconnect').catch(() => {})
  await phone(stack, '/mode', { mode: 'hold' })
})

test('deposit through WalletConnect: paired by its code, the wallet check signed and the deposit sent on the phone', {
  tag: ['@npm:firefox', '@npm:webkit'],
}, async ({ page, stack }) => {
  await phone(stack, '/mode', { mode: 'auto-approve' })
  const before = await destBalance(stack, stack.walletConnect.phoneAccount)
  const answeredBefore = new Set(((await phone(stack, '/state')).answered as Array<{ id: number }>).map((a) => a.id))
  await page.goto(widgetUrl(stack, { partner: WALLETCONNECT_PARTNER }))
  await expect(h1(page)).toHaveText('Connect your wallet')
  await page.getByRole('button', { name: /WalletConnect/ }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet on your phone' })
  await expect(dialog.getByRole('img', { name: 'WalletConnect pairing code' })).toBeVisible({ timeout: 30_000 })
  // The phone's camera: what the copy button puts on the clipboard (neither driver reads the clipboard).
  await page.evaluate(() => {
    const copied = window as unknown as { __copied?: string }
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void (copied.__copied = text) } })
  })
  await dialog.getByRole('button', { name: 'Copy Pairing link' }).click()
  await expect(dialog.getByText('Pairing link copied')).toBeVisible()
  const uri = await page.evaluate(() => (window as unknown as { __copied?: string }).__copied ?? '')
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  await phone(stack, '/pair', { uri })
  await expect(h1(page)).toHaveText('How much do you want to deposit?', { timeout: 30_000 })
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.getByLabel('Amount').fill('3')
  await page.getByRole('button', { name: 'See the price' }).click()
  await expect(h1(page)).toHaveText('Check your deposit')
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(h1(page)).toHaveText('Deposit delivered', { timeout: 60_000 })
  expect(await destBalance(stack, stack.walletConnect.phoneAccount)).toBeGreaterThan(before)
  const answered = ((await phone(stack, '/state')).answered as Array<{ id: number; method?: string; outcome: string }>).filter((a) => !answeredBefore.has(a.id))
  expect(answered.map((a) => a.method)).toContain('personal_sign')
  expect(answered.map((a) => a.method)).toContain('eth_sendTransaction')
  expect(answered.filter((a) => a.outcome !== 'approved')).toEqual([])
  expect(await page.errors()).toEqual([])
})
