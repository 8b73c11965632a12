import type { Page } from '@playwright/test'
import {
  expect,
  expectAxeClean,
  expectLanded,
  expectNothing,
  fillDetails,
  keptKey,
  pressByKeyboard,
  quietSpan,
  setHidden,
  tabTo,
  test,
  walletToProvider,
} from './helpers'
import { type LogEntry, type StackConfig, fiatUrl, sandbox, stackConfig } from './stack'

let stack: StackConfig
const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

test.beforeAll(() => {
  stack = stackConfig()
})

async function throughIdentity(page: Page, account = 4) {
  await page.goto(fiatUrl(stack))
  await walletToProvider(page, stack.accounts[account])
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1(page)).toHaveText('Your details')
  expect(new URL(page.url()).searchParams.get('authCode')).toBeNull() // dropped from the address bar
}

async function virtualAccountId(): Promise<string> {
  const state = (await sandbox(stack, '/__sandbox/fiat')) as { virtuals: Array<[string, unknown]> }
  return state.virtuals.at(-1)![0]
}

test('the whole path to funded shows the bank details and the delivered amount', async ({ page }) => {
  const events: unknown[] = []
  await page.exposeFunction('__event', (e: unknown) => events.push(e))
  await page.addInitScript(() =>
    window.addEventListener('stablecoin-widget', (e) => {
      const { name, payload } = (e as CustomEvent).detail
      if (name === 'account') (window as unknown as { __event(p: unknown): void }).__event(payload)
    }),
  )
  await throughIdentity(page)
  await fillDetails(page)
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  const reference = page.getByRole('definition').filter({ hasText: /^SBX-/ })
  await expect(page.getByText('Payment reference')).toBeVisible()
  await expect(page.getByText(/Always include this reference/)).toBeVisible()
  await expect(page.getByText(/^DE\d\d \d{4} \d{4} \d{4} \d{4} \d{2}$/)).toBeVisible()
  await expect(page.getByText('Sandbox Bank AG')).toBeVisible()
  await expect(page.getByText('SBXBDEFFXXX')).toBeVisible()
  await expect(page.getByText('Fee: 1% of each transfer')).toBeVisible()
  await expect(reference).toHaveCount(1)
  expect(events).toHaveLength(1)
  expect(events[0]).toMatchObject({
    accountId: expect.stringMatching(/^acc_/),
    virtualAccountId: expect.stringMatching(/^va_/),
    feeBps: 100,
    details: { reference: expect.stringMatching(/^SBX-/) },
  })
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.getByRole('button', { name: 'Copy Payment reference' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Payment reference copied' })).toBeVisible()
  // The buyer announced nothing; what the bank delivered is what we say arrived.
  await sandbox(stack, '/__sandbox/control', { fundAccount: { virtualAccountId: await virtualAccountId(), amount: '99.5' } })
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 40_000 })
  // The sandbox's answers name no asset: the widget assumes none (no USDC by default).
  // What landed on the account, less the account's fee, goes on as stablecoins: no unit the answer
  // does not give, no amount delivered that it does not name.
  await expect(page.getByText('Your transfer of 99.5 arrived. Less the 1% fee, it is converted and sent to your wallet as stablecoins.')).toBeVisible()
  await expect(page.getByText(/was delivered/)).toHaveCount(0)
})

test('a reused auth code leads back to identity and is never sent again @extended', async ({ page }) => {
  await throughIdentity(page)
  await fillDetails(page)
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  // A second buyer session replays the same code, as a stale link or a back button would.
  const log = (await sandbox(stack, '/__sandbox/log')) as LogEntry[]
  const used = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]')[0], keptKey(stack, 'stablecoin-widget:v1:used-auth-codes'))
  await page.evaluate(() => localStorage.clear())
  // As the identity provider does: the partner's signed link, with the code pair added to it.
  await page.goto(`${fiatUrl(stack, { walletAddress: stack.accounts[4] })}&authCode=${encodeURIComponent(used)}`)
  await expect(h1(page)).toHaveText('Your details')
  await fillDetails(page)
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Verify your identity')
  await expect(page.getByText(/That verification could not be used/)).toBeVisible()
  await page.reload()
  await expect(h1(page)).toHaveText('Verify your identity')
  const onboards = ((await sandbox(stack, '/__sandbox/log')) as LogEntry[]).filter((e) => e.path === '/fiat/onboard' && e.method === 'POST')
  expect(onboards.length - log.filter((e) => e.path === '/fiat/onboard' && e.method === 'POST').length).toBe(1)
})

test('a banking-partner 400 spends the code: back to identity with its message, then the typed details with the field marked @extended', async ({ page }) => {
  await throughIdentity(page)
  await fillDetails(page, { email: 'ada@example' })
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(page.getByText('This is not an email address.')).toBeVisible() // caught before sending
  await page.getByLabel('Email').fill('ada@example.com')
  await page.getByLabel('Mobile phone').fill('+0049 151')
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(page.getByText(/Enter the number in international format/)).toBeVisible()
  await expect(page.getByLabel('Full name')).toHaveValue('Ada Lovelace')
  // A name the bank refuses (the sandbox refuses none by rule; force it with a one-letter name).
  await page.getByLabel('Mobile phone').fill('+49 151 2345 6789')
  await page.getByLabel('Full name').fill('A')
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(page.getByText('This is required.')).toBeVisible()
  await page.getByLabel('Full name').fill('Ada Lovelace')
  const sent: string[] = []
  await page.route('**/fiat/onboard', (route) => {
    sent.push((route.request().postDataJSON() as { authCode: string }).authCode)
    return route.fulfill({
      status: 400,
      headers: { 'Access-Control-Allow-Origin': new URL(page.url()).origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { code: 'INVALID_PHONE_NUMBER', message: 'applicantInfo.phone: number is not reachable' } }),
    })
  })
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  // The code is spent (the contract: never resend a rejected one): verify again, told why.
  await expect(h1(page)).toHaveText('Verify your identity')
  await expect(page.getByText('The bank said: applicantInfo.phone: number is not reachable')).toBeVisible()
  await expect(page.getByText('Code: INVALID_PHONE_NUMBER')).toBeVisible()
  await expectAxeClean(page, 'identity after a bank error')
  await page.unroute('**/fiat/onboard')
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await expect(h1(page)).toHaveText('Your details')
  // Everything typed is still there, and the field the bank refused is marked.
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com')
  await expect(page.getByLabel('Full name')).toHaveValue('Ada Lovelace')
  await expect(page.getByLabel('Mobile phone')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('The bank said: applicantInfo.phone: number is not reachable')).toBeVisible()
  await expectAxeClean(page, 'details with a bank error')
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  expect(sent).toHaveLength(1)
  const onboards = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '[]') as string[],
    keptKey(stack, 'stablecoin-widget:v1:used-auth-codes'),
  )
  expect(onboards).toContain(sent[0])
  expect(onboards.at(-1)).not.toBe(sent[0])
})

test('a reload on the details screen shows the same details without a new onboarding; polling stops at funded and pauses while hidden @extended', async ({
  page,
  sandbox: sb,
}) => {
  await throughIdentity(page, 5)
  await fillDetails(page)
  await page.getByRole('button', { name: 'Get the bank details' }).click()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  const ibanBefore = await page.getByText(/^DE\d\d /).textContent()
  await page.reload()
  await expect(h1(page)).toHaveText('Send a bank transfer')
  await expect(page.getByText(/^DE\d\d /)).toHaveText(ibanBefore!)
  // Hidden: no bank poll (after a second's grace for one already on its way), over several of the
  // sandbox build's bank poll intervals.
  await setHidden(page, true)
  const hiddenAt = Date.now()
  const statusPolls = () => sb.posts('/fiat/status')
  const span = 1_000 + (await quietSpan(sb, 'bankPollMs'))
  await expectNothing(async () => (await statusPolls()).filter((e) => e.t > hiddenAt + 1_000), span, 'bank polls while hidden')
  await setHidden(page, false)
  await sb.fundLastAccount('10')
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 40_000 })
  // Polling stops at funded: no status call after the one that said so.
  const funded = (await statusPolls()).at(-1)!
  await expectNothing(async () => (await statusPolls()).filter((e) => e.t > funded.t), await quietSpan(sb, 'bankPollMs'), 'bank polls after funded')
  expect(await sb.posts('/fiat/onboard')).toHaveLength(1)
})

test('every onboarding screen is axe-clean and the flow completes with the keyboard alone', async ({ page }) => {
  await page.goto(fiatUrl(stack))
  await expectAxeClean(page, 'wallet step')
  await tabTo(page, page.getByLabel('Wallet address'))
  await page.keyboard.type(stack.accounts[6])
  await page.keyboard.press('Enter')
  await expectLanded(page, 'Verify your identity', 'identity step')
  await pressByKeyboard(page, page.getByRole('link', { name: 'Verify with our identity partner' }))
  await pressByKeyboard(page, page.getByRole('button', { name: 'Verify my identity' }))
  await expect(h1(page)).toHaveText('Your details')
  await expectAxeClean(page, 'details form')
  await tabTo(page, page.getByLabel('Full name'))
  await page.keyboard.type('Grace Hopper')
  await page.keyboard.press('Tab')
  await page.keyboard.type('grace@example.com')
  await page.keyboard.press('Tab')
  await page.keyboard.type('+1 202 555 0143')
  await tabTo(page, page.getByLabel('Nationality'))
  await page.keyboard.type('United States')
  await tabTo(page, page.getByLabel('Country of residence'))
  await page.keyboard.type('United States')
  await pressByKeyboard(page, page.getByRole('button', { name: 'Get the bank details' }))
  await expectLanded(page, 'Send a bank transfer', 'bank details')
  await sandbox(stack, '/__sandbox/control', { fundAccount: { virtualAccountId: await virtualAccountId(), amount: '25' } })
  await expect(h1(page)).toHaveText('Your money arrived', { timeout: 40_000 })
  await expectAxeClean(page, 'funded')
})

test('"Verify with our identity partner" answers Space and Enter, as a button would, keyboard only @extended', async ({ page }) => {
  await page.goto(fiatUrl(stack))
  await expect(h1(page)).toHaveText('Where should your stablecoins go?')
  await tabTo(page, page.getByLabel('Wallet address'))
  await page.keyboard.type(stack.accounts[4])
  await page.keyboard.press('Enter')
  await expect(h1(page)).toHaveText('Verify your identity')
  const go = page.getByRole('link', { name: 'Verify with our identity partner' })
  await tabTo(page, go)
  await page.keyboard.press('Space')
  await expect(page.getByRole('heading', { name: 'Sandbox identity provider' })).toBeVisible()
  await page.goBack()
  await expect(h1(page)).toHaveText('Verify your identity')
  await tabTo(page, go)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Sandbox identity provider' })).toBeVisible()
})
