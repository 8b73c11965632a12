// Issue 28, finding 5: the partner's bearer token (partnerToken) never travels in a URL to a third
// party. The sandbox's partner backend (the kit) requires the token, so every step that reaches it
// shows the widget still holds it: after the address bar lost it, after a reload, and back from the
// card page and the identity provider, which each received a returnUrl without it.
import type { Page, Request } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { detailsAfterProvider, expect, priceCardAndPay, test, walletToProvider } from './helpers'
import { SANDBOX_ORIGIN, type StackConfig } from './stack'

const TOKEN = 'user-42-secret'
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })
const inHalfAnHour = () => String(Math.floor(Date.now() / 1000) + 1800)
/** The partner's signed link for a flow, with its token and an expiry, as its server writes it. */
const tokenLink = (stack: StackConfig, flow: string, extra: Record<string, string> = {}) =>
  demoUrl(stack, `${SANDBOX_ORIGIN}/`, flow, { partnerToken: TOKEN, expires: inHalfAnHour(), ...extra }) as string
const carriesToken = (text: string) => text.includes('partnerToken') || text.includes(TOKEN) || decodeURIComponent(text).includes(TOKEN)

/** Every request of the page to the partner backend, with its Authorization header. */
function partnerCalls(page: Page, stack: StackConfig) {
  const calls: Array<{ path: string; auth?: string; body?: string }> = []
  page.on('request', (r: Request) => {
    if (r.url().startsWith(stack.partnerBase) && r.method() !== 'OPTIONS')
      calls.push({ path: new URL(r.url()).pathname, auth: r.headers().authorization, body: r.postData() ?? undefined })
  })
  return calls
}
/** Every URL the page navigates to or asks for, for the token. */
function everyUrl(page: Page) {
  const urls: string[] = []
  page.on('request', (r: Request) => urls.push(r.url()))
  return urls
}

test.beforeEach(async ({ sandbox }) => {
  await sandbox.control({ partnerToken: TOKEN, cardProcessingMs: 500 })
})

test('card: the token leaves the address bar, a reload still works, the card page gets a returnUrl without it, and the return completes', async ({
  page,
  stack,
}) => {
  const calls = partnerCalls(page, stack)
  const urls = everyUrl(page)
  await page.goto(tokenLink(stack, 'card'))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect.poll(() => page.url()).not.toContain('partnerToken')
  expect(page.url()).toContain('signature=')

  await page.reload()
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  expect(page.url()).not.toContain('partnerToken')
  await priceCardAndPay(page, stack.accounts[2])
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()

  // What the card provider was handed as the way back (through the partner backend, to the service).
  const purchase = calls.find((c) => c.path === '/partner/card/purchase')
  const returnUrl: string = JSON.parse(purchase?.body ?? '{}').returnUrl
  expect(returnUrl).toMatch(new RegExp(`^${SANDBOX_ORIGIN}/\\?partner=`))
  expect(carriesToken(returnUrl)).toBe(false)

  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(h1(page)).toHaveText('Purchase complete', { timeout: 30_000 })
  expect(page.url()).toBe(returnUrl)
  // Every call to the backend carried the token, the status polls after the return too.
  expect(calls.length).toBeGreaterThanOrEqual(3)
  expect(new Set(calls.map((c) => c.auth))).toEqual(new Set([`Bearer ${TOKEN}`]))
  // The only request that ever carried the token in its URL is the partner's own link.
  expect(urls.filter(carriesToken)).toEqual([urls[0]])
})

test('bank deposit: the identity provider gets a returnUrl without the token, and the return resumes with it', async ({ page, stack }) => {
  const calls = partnerCalls(page, stack)
  const urls = everyUrl(page)
  await page.goto(tokenLink(stack, 'bankDeposit'))
  await expect(h1(page)).toHaveText('Where should your stablecoins go?')
  await expect.poll(() => page.url()).not.toContain('partnerToken')
  await walletToProvider(page, stack.accounts[6])
  const identity = new URL(page.url())
  expect(identity.origin).toBe(new URL(stack.identityUrl).origin)
  const returnUrl = identity.searchParams.get('returnUrl')!
  expect(returnUrl).toMatch(new RegExp(`^${SANDBOX_ORIGIN}/\\?partner=`))
  expect(carriesToken(returnUrl)).toBe(false)

  await detailsAfterProvider(page)
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await page.getByLabel('Amount you send').fill('120.00')
  await page.getByRole('button', { name: 'Get bank details' }).click()
  await expect(h1(page)).toHaveText('Send your bank transfer')
  // The backend heard the token after the return: the deposit was created under it.
  const created = calls.filter((c) => c.path === '/partner/bank/deposit')
  expect(created.length).toBeGreaterThanOrEqual(1)
  expect(new Set(calls.map((c) => c.auth))).toEqual(new Set([`Bearer ${TOKEN}`]))
  expect(urls.filter(carriesToken)).toEqual([urls[0]])
})

test('the same link, without its token, in a tab that never held it does not start: the buyer is told to start again', async ({ page, context, stack }) => {
  const calls = partnerCalls(page, stack)
  await page.goto(tokenLink(stack, 'card'))
  await expect(h1(page)).toHaveText('How much do you want to pay?')
  await expect.poll(() => page.url()).not.toContain('partnerToken')
  const fresh = await context.newPage()
  const freshCalls = partnerCalls(fresh, stack)
  await fresh.goto(page.url())
  await expect(fresh.getByRole('heading', { name: 'This payment link was changed or has expired', level: 1 })).toBeVisible()
  await expect(fresh.getByText('start again there')).toBeVisible()
  expect(freshCalls).toEqual([])
  expect(calls.every((c) => c.auth === `Bearer ${TOKEN}`)).toBe(true)
})

test('a signed link with a token but no expires does not start', async ({ page, stack }) => {
  const calls = partnerCalls(page, stack)
  await page.goto(demoUrl(stack, `${SANDBOX_ORIGIN}/`, 'card', { partnerToken: TOKEN }))
  await expect(page.getByRole('heading', { name: 'This payment link was changed or has expired', level: 1 })).toBeVisible()
  expect(calls).toEqual([])
})
