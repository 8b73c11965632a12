// Issue 29, item 6: the partner's server half, visible. The example partner pages sign a demo user
// in; the sandbox's partner server runs the kit with its PGlite store and reconciler; its Payments
// page lists that user's payments with the status the reconciler read from the service.
import type { Page } from '@playwright/test'
import { expect, expectAxeClean, test } from './helpers'
import type { LogEntry, StackConfig } from './stack'

const paymentsPage = (stack: StackConfig, user: string) => `${stack.apiBase}/examples/payments.html?user=${user}`

/** The demo session the partner's page was given (what its script sends to the partner's server). */
async function sessionOf(page: Page, stack: StackConfig, user: string): Promise<string> {
  const html = await (await page.request.get(paymentsPage(stack, user))).text()
  const token = /<meta name="demo-session" content="([^"]+)"/.exec(html)?.[1]
  if (!token) throw new Error(`no demo session on the Payments page of ${user}`)
  return token
}

async function listed(page: Page, stack: StackConfig, token?: string) {
  const res = await page.request.get(`${stack.apiBase}/partner-demo/payments`, token ? { headers: { Authorization: `Bearer ${token}` } } : {})
  return { status: res.status(), body: await res.json() }
}

/** The most requests that started within any `windowMs`. */
function busiest(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  let most = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= windowMs) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

test('a card purchase in the widget turns "confirmed" on the Payments page, without a reload, and the reconciler stays inside the key\'s rate', async ({ page, context, stack, sandbox }) => {
  const started = Date.now()
  await sandbox.control({ cardProcessingMs: 500 })
  await page.goto(paymentsPage(stack, 'alice'))
  await expect(page.getByRole('heading', { level: 1, name: 'Your payments' })).toBeVisible()
  await expect(page.getByText('Demo sign-in:')).toBeVisible()
  await expect(page.getByText(/you are signed in as alice/)).toBeVisible()
  let loads = 0
  page.on('load', () => loads++)
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))

  // The buyer pays on the partner's shop page, in another tab, signed in as the same demo user.
  const shop = await context.newPage()
  await shop.goto(`${stack.apiBase}/examples/script.html?flow=card&user=alice`)
  await shop.getByLabel('Total to pay').fill('50')
  await shop.getByRole('button', { name: 'See what you get' }).click()
  await shop.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[2])
  await shop.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(shop).toHaveURL(/\/card-page\?id=cp_/)
  const id = new URL(shop.url()).searchParams.get('id')!

  // Recorded against alice by the kit when it was created; not confirmed while the card is unpaid.
  const row = page.getByRole('row').filter({ hasText: id })
  await expect(row).toBeVisible()
  await expect(row.getByRole('cell')).toHaveText(['Card purchase', id, '50 EUR', /pending/, 'not yet'])
  await expectAxeClean(page, 'Payments page')
  await shop.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(row.getByRole('cell')).toHaveText(['Card purchase', id, '50 EUR', 'completed', 'confirmed'], { timeout: 30_000 })
  await expect(page.getByRole('status')).toContainText(`${id} is confirmed`)
  expect(loads).toBe(0)
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
  await expectAxeClean(page, 'Payments page, confirmed')

  // The reconciler's pace against the key's rate (the sandbox refuses a key over it with 429).
  const demo = (await (await page.request.get(`${stack.apiBase}/__sandbox/partner-demo`)).json()) as {
    keyRate: { limit: number; windowMs: number }
    reconciler: { requestsPerSecond: number; requests: number[]; refused: number }
  }
  // The sandbox's log holds the kit's requests; the reconciler's are listed by the demo.
  const mine = demo.reconciler.requests.filter((t) => t >= started)
  const kits = ((await sandbox.log()) as LogEntry[]).filter((e) => e.path.startsWith('/v1/'))
  const key = [...kits.map((e) => e.t), ...mine]
  const { limit, windowMs } = demo.keyRate
  console.log(
    `reconciler: ${mine.length} status requests in ${((Date.now() - started) / 1000).toFixed(1)} s, at most ${busiest(mine, windowMs)} per ${windowMs} ms ` +
      `(paced at ${demo.reconciler.requestsPerSecond}/s); the whole key (kit and reconciler): at most ${busiest(key, windowMs)} per ${windowMs} ms; ` +
      `the key's limit: ${limit} per ${windowMs} ms`,
  )
  expect(mine.length).toBeGreaterThan(0)
  // Started at least 1/rate apart by the pacer; timed here a moment later, so one more may fall in a second.
  expect(busiest(mine, 1000)).toBeLessThanOrEqual(Math.ceil(demo.reconciler.requestsPerSecond) + 1)
  expect(busiest(key, windowMs)).toBeLessThanOrEqual(limit)
  expect(kits.filter((e) => e.status === 429)).toEqual([])
  expect(demo.reconciler.refused).toBe(0)
})

test("alice never sees bob's payments: the partner's server lists each demo user's own, and no one's without a session", async ({ page, stack }) => {
  const [alice, bob] = [await sessionOf(page, stack, 'alice'), await sessionOf(page, stack, 'bob')]
  expect(alice).not.toBe(bob)
  // Bob buys through the partner's backend (the kit), as his widget would.
  const kit = async (path: string, body: unknown) => {
    const res = await page.request.post(`${stack.partnerBase}${path}`, { headers: { Authorization: `Bearer ${bob}` }, data: body })
    expect(res.status(), path).toBe(200)
    return res.json()
  }
  const { token: kycToken } = await kit('/card/kyc-token', { walletAddress: stack.accounts[3] })
  const { id } = await kit('/card/purchase', {
    kycToken, fiatCurrency: 'EUR', fiatAmount: '30', walletAddress: stack.accounts[3], returnUrl: `${stack.apiBase}/examples/script.html`,
  })

  const ids = (list: { body: { payments: Array<{ id: string }> } }) => list.body.payments.map((p) => p.id)
  const bobs = await listed(page, stack, bob)
  expect(bobs.status).toBe(200)
  expect(bobs.body.user).toBe('bob')
  expect(ids(bobs)).toContain(id)
  const alices = await listed(page, stack, alice)
  expect(alices.status).toBe(200)
  expect(alices.body.user).toBe('alice')
  expect(ids(alices)).not.toContain(id)
  // The page's own query names no one: alice's session with ?user=bob is still alice.
  const asked = await page.request.get(`${stack.apiBase}/partner-demo/payments?user=bob`, { headers: { Authorization: `Bearer ${alice}` } })
  expect(ids({ body: await asked.json() })).not.toContain(id)
  expect(await listed(page, stack)).toMatchObject({ status: 401, body: { error: { code: 'unauthenticated' } } })
  expect(await listed(page, stack, 'bob')).toMatchObject({ status: 401, body: { error: { code: 'unauthenticated' } } })

  await page.goto(paymentsPage(stack, 'alice'))
  await expect(page.getByText(/you are signed in as alice/)).toBeVisible()
  await expect(page.getByRole('table')).toBeVisible()
  await expect(page.getByText(id)).toHaveCount(0)
  await page.goto(paymentsPage(stack, 'bob'))
  await expect(page.getByRole('row').filter({ hasText: id })).toBeVisible()
})
