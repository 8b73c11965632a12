// Issue 29, item 6: the partner's server half, visible. The example partner pages sign a demo user
// in; the sandbox's partner server runs the kit with its PGlite store and reconciler; its Payments
// page lists that user's payments with the status the reconciler read from the service.
import type { Page } from '@playwright/test'
import { busiestWindow, expect, expectAxeClean, test } from './helpers'
import { type LogEntry, type StackConfig, rpc } from './stack'
import { TestWallet } from './testWallet'

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

test('a card purchase in the widget turns "confirmed" on the Payments page, without a reload, and the reconciler stays inside the key\'s rate @extended', async ({
  page,
  context,
  stack,
  sandbox,
}) => {
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
    `reconciler: ${mine.length} status requests in ${((Date.now() - started) / 1000).toFixed(1)} s, at most ${busiestWindow(mine, windowMs)} per ${windowMs} ms ` +
      `(paced at ${demo.reconciler.requestsPerSecond}/s); the whole key (kit and reconciler): at most ${busiestWindow(key, windowMs)} per ${windowMs} ms; ` +
      `the key's limit: ${limit} per ${windowMs} ms`,
  )
  expect(mine.length).toBeGreaterThan(0)
  // Started at least 1/rate apart by the pacer; timed here a moment later, so one more may fall in a second.
  expect(busiestWindow(mine, 1000)).toBeLessThanOrEqual(Math.ceil(demo.reconciler.requestsPerSecond) + 1)
  expect(busiestWindow(key, windowMs)).toBeLessThanOrEqual(limit)
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
    kycToken,
    fiatCurrency: 'EUR',
    fiatAmount: '30',
    walletAddress: stack.accounts[3],
    returnUrl: `${stack.apiBase}/examples/script.html`,
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

type Update = { userId: string; kind: string; id: string; previous: string | null; status: string; confirmed: boolean }
type Recorded = { name: string; payload: Record<string, unknown> }

/** What the partner's server delivered to its onUpdate so far (the sandbox's partner demo lists it). */
async function updates(page: Page, stack: StackConfig): Promise<Update[]> {
  return ((await (await page.request.get(`${stack.apiBase}/__sandbox/partner-demo`)).json()) as { updates: Update[] }).updates
}

test('a crypto deposit turns "confirmed" on the Payments page from the chain and the partner path: told by the widget, read from the chain by the kit, followed by the reconciler through /v1/deposit/status @extended', async ({
  page,
  context,
  stack,
  sandbox,
}) => {
  await sandbox.control({ processingMs: 3_000 })
  await page.goto(paymentsPage(stack, 'alice'))
  await expect(page.getByText(/you are signed in as alice/)).toBeVisible()
  let loads = 0
  page.on('load', () => loads++)

  // The buyer deposits on the partner's shop page (the markup mode: events are DOM events), signed in as alice.
  const shop = await context.newPage()
  const wallet = TestWallet.forStack(stack, 8)
  await wallet.install(shop)
  const told: Array<Promise<{ id: string } | undefined>> = []
  shop.on('request', (r) => {
    if (r.method() === 'POST' && r.url() === `${stack.partnerBase.replace(/\/+$/, '')}/deposit/sent`) told.push(r.response().then((res) => res?.json()))
  })
  await shop.goto(`${stack.apiBase}/examples/markup.html?flow=deposit&user=alice`)
  const widget = shop.locator('#widget [data-stablecoin-widget]')
  await widget.getByRole('button', { name: 'Test Wallet' }).click()
  await widget.getByLabel('Amount').fill('2.5')
  await widget.getByRole('button', { name: 'See the price' }).click()
  // The kit credits a deposit only to the user who linked its sender: the first send from this
  // wallet asks it to sign the kit's message first, and says why while the wallet asks.
  const asking: string[] = []
  wallet.onSign(async () => {
    // The step under way in the timeline, and the hint under it.
    await expect(widget.getByRole('listitem').and(widget.locator('[aria-current="step"]'))).toContainText('Confirm this wallet is yours')
    await expect(widget.getByText(/Signing costs nothing and moves no money/)).toBeVisible()
    asking.push(wallet.requests.some((r) => r.method === 'eth_sendTransaction') ? 'after a transaction' : 'before any transaction')
  })
  await widget.getByRole('button', { name: 'Confirm and send' }).click()
  await expect.poll(() => told.length, { timeout: 30_000 }).toBe(1)
  expect(asking).toEqual(['before any transaction'])
  const [message] = wallet.signedMessages()
  expect(message).toContain(`${new URL(stack.apiBase).host} wants you to sign in with your Ethereum account:\n${stack.accounts[8]}\n`)
  expect(message).toContain('\nChain ID: 8453\n')
  const { id } = (await told[0])!
  expect(id).toMatch(/^sandbox-relay:0x[0-9a-f]{64}$/)

  // Recorded for alice by the kit, not yet confirmed while the routing layer delivers.
  const row = page.getByRole('row').filter({ hasText: id })
  await expect(row).toBeVisible()
  await expect(row.getByRole('cell').nth(0)).toHaveText('Crypto deposit')
  await expect(row.getByRole('cell').nth(4)).toHaveText('not yet')
  await expect(widget.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
  await expect(row.getByRole('cell').nth(3)).toHaveText('done', { timeout: 30_000 })
  await expect(row.getByRole('cell').nth(4)).toHaveText('confirmed')
  await expect(page.getByRole('status')).toContainText(`${id} is confirmed`)
  expect(loads).toBe(0)

  // The reconciler asked the partner path, and onUpdate heard the deposit end once.
  const delivered = (await updates(page, stack)).filter((u) => u.id === id)
  expect(delivered.filter((u) => u.status === 'done')).toEqual([
    { userId: 'alice', kind: 'deposit', id, previous: expect.any(String), status: 'done', confirmed: true },
  ])
  expect(new Set(delivered.map((u) => u.status)).size).toBe(delivered.length)
  const demo = (await (await page.request.get(`${stack.apiBase}/__sandbox/partner-demo`)).json()) as { reconciler: { refused: number } }
  expect(demo.reconciler.refused).toBe(0)

  // A second deposit from the same wallet: linked already, so no signature is asked, and it is alice's too.
  await widget.getByRole('button', { name: 'Start a new deposit' }).click()
  await widget.getByLabel('Amount').fill('1.5')
  await widget.getByRole('button', { name: 'See the price' }).click()
  await widget.getByRole('button', { name: 'Confirm and send' }).click()
  await expect.poll(() => told.length, { timeout: 30_000 }).toBe(2)
  const second = (await told[1])!
  expect(second.id).toMatch(/^sandbox-relay:0x[0-9a-f]{64}$/)
  expect(second.id).not.toBe(id)
  await expect(page.getByRole('row').filter({ hasText: second.id })).toBeVisible()
  expect(wallet.signedMessages()).toHaveLength(1)
  expect(asking).toHaveLength(1)
})

test('a forged "done" credits nothing: a forged complete event on the partner page, a transfer that is no deposit, someone else\'s transaction', async ({
  page,
  context,
  stack,
  sandbox,
}) => {
  const [aliceSession, bobSession] = [await sessionOf(page, stack, 'alice'), await sessionOf(page, stack, 'bob')]
  await page.goto(paymentsPage(stack, 'alice'))
  await expect(page.getByText(/you are signed in as alice/)).toBeVisible()
  const before = await updates(page, stack)

  // 1. A malicious buyer on the shop page dispatches the widget's own "complete" event, with ids of its choosing.
  const shop = await context.newPage()
  await shop.goto(`${stack.apiBase}/examples/markup.html?flow=deposit&user=alice`)
  const widget = shop.locator('#widget [data-stablecoin-widget]')
  await expect(widget.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  const forgedHash = `0x${'f0'.repeat(32)}`
  const forged = {
    flow: 'deposit',
    outcome: 'done',
    id: forgedHash,
    reference: 'order-42',
    deposit: { provider: 'sandbox-relay', txHash: forgedHash, chainId: 8453, kitId: `sandbox-relay:${forgedHash}` },
  }
  const logBefore = (await sandbox.log()).length
  await widget.evaluate(
    (el, payload) => el.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name: 'complete', payload }, bubbles: true })),
    forged,
  )
  // What it did: the partner page's own listener took it as an event like any other (its log shows it)...
  const heard = (await shop.evaluate(() => (window as unknown as { widgetEvents: Recorded[] }).widgetEvents)).filter((e) => e.name === 'complete')
  expect(heard).toEqual([{ name: 'complete', payload: forged }])
  await expect(shop.locator('#log')).toContainText(forgedHash)
  // ...and nothing else: the widget still asks for a wallet, and no request left the page for the partner's server or the service.
  await expect(widget.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  // Listeners run inside dispatchEvent, and anything they set off renders by the next frame: by then
  // any request of theirs has left the page.
  await shop.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))))
  await shop.waitForLoadState('networkidle')
  expect((await sandbox.log()).slice(logBefore).filter((e) => !e.path.startsWith('/partner-demo/') && !e.path.startsWith('/examples/'))).toEqual([])

  // 2. The browser tells the kit of transactions itself (as alice, with her session).
  const sent = async (session: string, body: unknown) => {
    const res = await page.request.post(`${stack.partnerBase}/deposit/sent`, { headers: { Authorization: `Bearer ${session}` }, data: body })
    return { status: res.status(), body: await res.json() }
  }
  // A hash on no chain: refused, nothing recorded.
  expect(await sent(aliceSession, { provider: 'sandbox-relay', txHash: forgedHash, chainId: 8453 })).toMatchObject({
    status: 422,
    body: { error: { code: 'deposit_unverified' } },
  })
  // A real token transfer from a wallet that is no deposit (to an address of the sender's choosing):
  // its sender is a wallet neither alice nor bob linked (by signing the kit's message with it), so
  // the kit refuses it before the service is asked (403 wallet_not_linked). Nothing is recorded.
  const source = stack.chains.find((c) => c.id === stack.sources[0].chainId)!
  const to = stack.accounts[9].slice(2).toLowerCase().padStart(64, '0')
  const data = `0xa9059cbb${to}${(2_500_000).toString(16).padStart(64, '0')}`
  const transfer = (await rpc(source.rpcUrl, 'eth_sendTransaction', [{ from: stack.accounts[7], to: stack.sources[0].token, data }])) as string
  const notADeposit = await sent(aliceSession, { provider: 'sandbox-relay', txHash: transfer, chainId: 8453 })
  expect(notADeposit).toMatchObject({ status: 403, body: { error: { code: 'wallet_not_linked' } } })
  const byBob = await sent(bobSession, { provider: 'sandbox-relay', txHash: transfer, chainId: 8453 })
  expect(byBob).toMatchObject({ status: 403, body: { error: { code: 'wallet_not_linked' } } })
  const kitId = `sandbox-relay:${transfer.toLowerCase()}`
  const aliceReads = await page.request.post(`${stack.partnerBase}/deposit/status`, {
    headers: { Authorization: `Bearer ${aliceSession}` },
    data: { id: kitId },
  })
  expect(aliceReads.status()).toBe(404)

  // Nothing of it is listed or confirmed, and onUpdate never heard of either. The reconciler follows
  // only what the store holds, and the list below is the store's: with neither there, no round of
  // the reconciler can deliver them, so there is nothing to wait for.
  await expect(page.getByRole('row').filter({ hasText: forgedHash })).toHaveCount(0)
  await expect(page.getByRole('row').filter({ hasText: transfer.toLowerCase() })).toHaveCount(0)
  const listed = (await (
    await page.request.get(`${stack.apiBase}/partner-demo/payments`, { headers: { Authorization: `Bearer ${aliceSession}` } })
  ).json()) as { payments: Array<{ id: string }> }
  expect(listed.payments.filter((p) => p.id.includes(forgedHash) || p.id.toLowerCase().includes(transfer.toLowerCase()))).toEqual([])
  const after = (await updates(page, stack)).slice(before.length)
  expect(after.filter((u) => u.id.includes(forgedHash) || u.id.toLowerCase().includes(transfer.toLowerCase()))).toEqual([])
  console.log(
    `forged complete event: heard by the partner page's own listener (its log), no request to the partner's server or the service; ` +
      `a hash on no chain: 422 deposit_unverified; a transfer that is no deposit: ${notADeposit.status} ${notADeposit.body.error.code}, nothing recorded, onUpdate never called; ` +
      `bob naming it: ${byBob.status}`,
  )
})
