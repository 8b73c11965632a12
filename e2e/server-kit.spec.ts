// The partner-backend kit in a real browser: the sandbox's /partner/* is the kit's handler, so the
// widget's token, the preflight that carries it, and the CORS answers are Chromium's to judge.
import type { Page } from '@playwright/test'
import { expect, priceCardAndPay, test } from './helpers'
import { type LogEntry, type StackConfig, cardUrl, sandbox, stackConfig } from './stack'

let stack: StackConfig
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const log = async () => (await sandbox(stack, '/__sandbox/log')) as LogEntry[]

test.beforeAll(() => {
  stack = stackConfig()
})

test('a card purchase with a partner token round-trips through the kit: the widget sends the token, the backend adds the key @extended', async ({ page }) => {
  await sandbox(stack, '/__sandbox/control', { partnerToken: 'user-42', cardProcessingMs: 500 })
  const sentTokens: Array<string | undefined> = []
  page.on('request', (req) => {
    if (req.url().startsWith(stack.partnerBase) && req.method() === 'POST') sentTokens.push(req.headers().authorization)
  })
  await page.goto(cardUrl(stack, { partnerToken: 'user-42', expires: String(Math.floor(Date.now() / 1000) + 600) }))
  await priceCardAndPay(page, stack.accounts[2])
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(h1(page)).toHaveText('Purchase complete', { timeout: 30_000 })
  expect(sentTokens.length).toBeGreaterThanOrEqual(3) // kyc-token, purchase, status…
  expect(new Set(sentTokens)).toEqual(new Set(['Bearer user-42']))
  const entries = await log()
  const status = (path: string) => entries.filter((e) => e.path === path && e.method === 'POST').map((e) => e.status)
  expect(status('/partner/card/purchase')).toEqual([200])
  expect(status('/v1/card/purchase')).toEqual([200])
})

test('from the widget page: a wrong token is a readable 401, the right one is served; neither answer allows credentials', async ({ page }) => {
  await sandbox(stack, '/__sandbox/control', { partnerToken: 'user-42' })
  await page.goto(cardUrl(stack))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  const call = (token: string) =>
    page.evaluate(
      async ({ url, token, wallet }) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ walletAddress: wallet }),
        })
        return { status: res.status, body: await res.json(), credentials: res.headers.get('Access-Control-Allow-Credentials') }
      },
      { url: `${stack.partnerBase}/card/kyc-token`, token, wallet: stack.accounts[2] },
    )
  const refused = await call('user-41')
  expect(refused).toMatchObject({ status: 401, body: { error: { code: 'unauthenticated' } }, credentials: null })
  const served = await call('user-42')
  expect(served).toMatchObject({ status: 200, body: { environment: 'sandbox' } })
  expect(served.body.token).toMatch(/^kyc_/)
})

test('a page of a foreign origin cannot use the partner backend: the browser blocks it and nothing reaches the service', async ({ page }) => {
  await page.route('https://shop.evil.example/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>evil</title><h1>evil</h1></html>' }),
  )
  await page.goto('https://shop.evil.example/')
  const outcome = await page.evaluate(
    async ({ url, wallet }) => {
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ walletAddress: wallet }) })
        return `read ${res.status}`
      } catch (error) {
        return (error as Error).name
      }
    },
    { url: `${stack.partnerBase}/card/kyc-token`, wallet: stack.accounts[2] },
  )
  expect(outcome).toBe('TypeError') // CORS refused: the page reads nothing
  expect((await log()).filter((e) => e.path === '/v1/card/kyc-token')).toEqual([])
})

test('a key given twice is refused by the kit, by name, and nothing reaches the service', async ({ page }) => {
  await sandbox(stack, '/__sandbox/control', { partnerToken: null })
  await page.goto(cardUrl(stack))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  const answers = await page.evaluate(
    async ({ base, wallet }) => {
      const post = async (path: string, body: string) => {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
        return { status: res.status, body: await res.json() }
      }
      return [
        await post('/card/status', '{"id":"cp_mine","id":"cp_victim"}'),
        await post('/card/kyc-token', `{"walletAddress":"${wallet}","walletAddres\\u0073":"0x${'0'.repeat(40)}"}`),
      ]
    },
    { base: stack.partnerBase, wallet: stack.accounts[2] },
  )
  expect(answers).toEqual([
    { status: 400, body: { error: { code: 'duplicate_key', message: 'id: given more than once' } } },
    { status: 400, body: { error: { code: 'duplicate_key', message: 'walletAddress: given more than once' } } },
  ])
  expect((await log()).filter((e) => e.path === '/v1/card/status' || e.path === '/v1/card/kyc-token')).toEqual([])
})

test("a partner token the backend no longer accepts: the buyer reads to sign in again on the partner's site, with the kit's code @extended", async ({
  page,
}) => {
  await sandbox(stack, '/__sandbox/control', { partnerToken: 'user-42' })
  await page.goto(cardUrl(stack, { partnerToken: 'user-41', expires: String(Math.floor(Date.now() / 1000) + 600) }))
  await priceCardAndPay(page, stack.accounts[2])
  await expect(page.getByText('Your sign-in on the site you came from has ended. Sign in again on that site, then try again.')).toBeVisible()
  await expect(page.getByText('Code: unauthenticated')).toBeVisible()
  expect((await log()).filter((e) => e.path === '/v1/card/kyc-token')).toEqual([])
})

test("one user reading or acting on another user's payment gets 404 (403 for an account), and nothing reaches the service", async ({ page }) => {
  // No partnerToken control: each bearer token names its user, as a partner's sessions would.
  await sandbox(stack, '/__sandbox/control', { partnerToken: null })
  await page.goto(cardUrl(stack))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  const account = `acc_e2e_${Date.now()}`
  const answers = await page.evaluate(
    async ({ base, wallet, returnUrl, account }) => {
      const post = async (user: string, path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${user}` },
          body: JSON.stringify(body),
        })
        return { status: res.status, body: await res.json() }
      }
      const kyc = await post('alice', '/card/kyc-token', { walletAddress: wallet })
      const purchase = await post('alice', '/card/purchase', {
        kycToken: kyc.body.token,
        fiatCurrency: 'EUR',
        fiatAmount: '50',
        walletAddress: wallet,
        returnUrl,
      })
      const id: string = purchase.body.id
      const deposit = { accountId: account, walletId: `w_${account}`, fiatCurrency: 'EUR', fiatAmount: '100' }
      return {
        id,
        bobReads: await post('bob', '/card/status', { id }),
        bobReadsAnotherSpelling: await post('bob', '/card/status', { id: id.toUpperCase() }),
        aliceReads: await post('alice', '/card/status', { id }),
        // Alice presents the account first (the service does not know it: the binding stays hers).
        aliceDeposits: await post('alice', '/bank/deposit', deposit),
        bobDeposits: await post('bob', '/bank/deposit', deposit),
        bobPaysOut: await post('bob', '/bank/payout', { quoteId: 'q_any', accountId: account, beneficiary: { name: 'Bob', schema: 'bank_sepa' } }),
      }
    },
    { base: stack.partnerBase, wallet: stack.accounts[2], returnUrl: cardUrl(stack), account },
  )
  expect(answers.id).toMatch(/^cp_/)
  const notFound = { status: 404, body: { error: { code: 'payment_not_found', message: 'No such payment for this user.' } } }
  expect(answers.bobReads).toEqual(notFound)
  expect(answers.bobReadsAnotherSpelling).toEqual(notFound)
  expect(answers.aliceReads).toMatchObject({ status: 200, body: { id: answers.id, status: 'pending' } })
  expect(answers.aliceDeposits).toMatchObject({ status: 404, body: { error: { code: 'account_not_found' } } })
  const notOwned = { status: 403, body: { error: { code: 'account_not_owned', message: "accountId: this account is another user's." } } }
  expect(answers.bobDeposits).toEqual(notOwned)
  expect(answers.bobPaysOut).toEqual(notOwned)
  // What the service received: Alice's one status read and her one deposit; nothing of Bob's.
  const entries = await log()
  const received = (path: string) => entries.filter((e) => e.path === path && e.method === 'POST').length
  expect(entries.filter((e) => e.path.startsWith('/partner/') && e.method === 'POST').map((e) => `${e.path} ${e.status}`)).toEqual([
    '/partner/card/kyc-token 200',
    '/partner/card/purchase 200',
    '/partner/card/status 404',
    '/partner/card/status 404',
    '/partner/card/status 200',
    '/partner/bank/deposit 404',
    '/partner/bank/deposit 403',
    '/partner/bank/payout 403',
  ])
  expect(received('/v1/card/status')).toBe(1)
  expect(received('/v1/bank/deposit')).toBe(1)
  expect(received('/v1/bank/payout')).toBe(0)
})
