import type { Page } from '@playwright/test'
import { expect, expectAxeClean, expectNothing, quietFor, quietSpan, sandboxOf, test } from './helpers'
import { SANDBOX_ORIGIN, type StackConfig, cardUrl, mineAndResume, stackConfig, widgetUrl } from './stack'
import { TestWallet } from './testWallet'

// The three ways in, on partner pages served from the sandbox's origin (not the widget's).
let stack: StackConfig
const WIDGET_ORIGIN = SANDBOX_ORIGIN
test.beforeAll(() => {
  stack = stackConfig()
})

const partner = (mode: string, query: Record<string, string> = {}) => `${stack.apiBase}/examples/${mode}.html?${new URLSearchParams(query)}`
type Recorded = { name: string; payload: Record<string, unknown> }
const events = (page: Page) => page.evaluate(() => (window as unknown as { widgetEvents: Recorded[] }).widgetEvents)

async function wallet(page: Page, account: number) {
  const w = TestWallet.forStack(stack, account)
  await w.install(page)
  return w
}

async function deposit(root: Page | ReturnType<Page['frameLocator']>, amount: string) {
  await root.getByRole('button', { name: 'Test Wallet' }).click()
  await root.getByLabel('Amount').fill(amount)
  await root.getByRole('button', { name: 'See the price' }).click()
  await root.getByRole('button', { name: 'Confirm and send' }).click()
  await expect(root.getByRole('heading', { name: 'Deposit delivered' })).toBeVisible({ timeout: 60_000 })
}

/** ready first; quote, submitted, complete in that order; status polls; payloads that agree. */
function expectDepositEvents(seen: Recorded[], amount: string, reference?: string) {
  const names = seen.map((e) => e.name)
  // The partner's reference rides on every payload, so their page can match events to the order.
  if (reference) expect(seen.filter((e) => e.payload.reference !== reference)).toEqual([])
  expect(names[0]).toBe('ready')
  const positions = ['ready', 'quote', 'submitted', 'complete'].map((n) => names.indexOf(n))
  expect(
    positions.every((p) => p >= 0),
    names.join(','),
  ).toBe(true)
  expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  expect(names.filter((n) => n === 'status').length).toBeGreaterThanOrEqual(2)
  expect(names.lastIndexOf('status')).toBeLessThan(names.indexOf('complete'))
  const quote = seen.find((e) => e.name === 'quote')!.payload
  expect(quote).toMatchObject({ flow: 'deposit', amountIn: amount, currencyIn: 'USDC' })
  const submitted = seen.find((e) => e.name === 'submitted')!.payload
  expect(submitted.id).toMatch(/^0x[0-9a-f]{64}$/)
  expect(seen.find((e) => e.name === 'complete')!.payload).toMatchObject({ flow: 'deposit', outcome: 'done', id: submitted.id })
  expect(seen.filter((e) => e.name === 'screen').map((e) => e.payload.screen)).toEqual(
    expect.arrayContaining(['discovering', 'form', 'quote', 'tracking', 'result']),
  )
}

test('script tag: a deposit completes inside the shadow root, and events arrive in order with their payloads', async ({ page }) => {
  await wallet(page, 1)
  await page.goto(partner('script'))
  await expect(page.locator('#widget').getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  expect(await page.locator('#widget').evaluate((el) => !!el.shadowRoot)).toBe(true)
  await deposit(page, '2.5')
  expectDepositEvents(await events(page), '2.5', 'order-42')
})

test('markup: a <div data-stablecoin-widget> mounts by itself, a deposit completes, and its events are DOM events on it @extended', async ({ page }) => {
  await wallet(page, 5)
  await page.goto(partner('markup'))
  const host = page.locator('#widget [data-stablecoin-widget]')
  await expect(host.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  expect(await host.evaluate((el) => !!el.shadowRoot)).toBe(true)
  await deposit(page, '1.5')
  expectDepositEvents(await events(page), '1.5', 'order-42')
})

test('hosted page: a deposit completes and the same events arrive as DOM events on window, in order @extended', async ({ page }) => {
  await wallet(page, 6)
  await page.addInitScript(() => {
    const seen: unknown[] = []
    ;(window as unknown as { widgetEvents: unknown[] }).widgetEvents = seen
    window.addEventListener('stablecoin-widget', (e) => seen.push((e as CustomEvent).detail))
  })
  await page.goto(widgetUrl(stack))
  await deposit(page, '1.75')
  expectDepositEvents(await events(page), '1.75')
})

test('hosted mode: the partner page links to the full page, a deposit completes there, and the buyer returns to the partner @extended', async ({ page }) => {
  await wallet(page, 7)
  await page.goto(partner('hosted'))
  await page.getByRole('link', { name: 'Pay with stablecoins' }).click()
  await expect(page).toHaveURL(new RegExp(`^${WIDGET_ORIGIN}/\\?`))
  await deposit(page, '1.5')
  await page.getByRole('link', { name: 'Return to the site' }).click()
  await expect(page).toHaveURL(/examples\/hosted\.html\?.*returned=1/)
  await expect(page.locator('#log')).toContainText('Back from the hosted page')
})

test('iframe: a deposit completes in the frame, which is sized to its content', async ({ page }) => {
  await wallet(page, 2)
  await page.goto(partner('iframe'))
  const frame = page.frameLocator('#widget iframe')
  await expect(frame.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  const iframe = page.locator('#widget iframe')
  await expect(iframe).toHaveAttribute('allow', /payment/)
  await expect.poll(async () => (await iframe.boundingBox())?.height ?? 0).toBeGreaterThan(300)
  await deposit(frame, '1.25')
  expectDepositEvents(await events(page), '1.25', 'order-42')
})

test('iframe: with no wallet visible in the frame, the buyer continues on the full page in a new tab @extended', async ({ page }) => {
  await page.goto(partner('iframe'))
  const frame = page.frameLocator('#widget iframe')
  await expect(frame.getByText('No wallet found in this browser.')).toBeVisible()
  const link = frame.getByRole('link', { name: 'Continue on the full page' })
  await expect(link).toHaveAttribute('target', '_blank')
  const [tab] = await Promise.all([page.waitForEvent('popup'), link.click()])
  const url = new URL(tab.url())
  expect(url.origin).toBe(WIDGET_ORIGIN)
  expect(url.pathname).not.toContain('embed.html')
  expect(url.searchParams.get('flow')).toBe('deposit')
  // The same signed link: the partner from the registry, the signature still over the same query.
  expect(url.searchParams.get('partner')).toBe('sandbox')
  expect(url.searchParams.get('signature')).toMatch(/^[\w-]{86}$/)
  expect(url.searchParams.has('apiBase')).toBe(false)
  await expect(tab.getByRole('heading', { name: 'Connect your wallet', level: 1 })).toBeVisible()
  await expect(tab.getByRole('button', { name: /Sandbox wallet/ })).toBeVisible()
})

test('iframe: nothing is posted to "*": a parent on an unregistered origin hears nothing, even without frame-ancestors', async ({ page }) => {
  // The sandbox partner registers 127.0.0.1:19787 as its parent; this page is on localhost:19787.
  // The build's frame-ancestors would stop the frame outright; without it, the frame's own code stays silent.
  await page.route(`${WIDGET_ORIGIN}/embed.html*`, async (route) => {
    const response = await route.fetch()
    const headers = { ...response.headers() }
    delete headers['content-security-policy']
    await route.fulfill({ response, headers })
  })
  await page.goto(`${stack.apiBase.replace('127.0.0.1', 'localhost')}/examples/partner.css`)
  await page.evaluate(
    ({ widget, claimed }) => {
      const got: unknown[] = []
      ;(window as unknown as { got: unknown[] }).got = got
      window.addEventListener('message', (e) => got.push(e.data))
      const frame = document.createElement('iframe')
      frame.src = `${widget}/embed.html?partner=sandbox&flow=card&parentOrigin=${encodeURIComponent(claimed)}`
      document.body.appendChild(frame)
    },
    { widget: WIDGET_ORIGIN, claimed: stack.apiBase },
  )
  const frame = page.frameLocator('iframe')
  // The frame is up (its hello and ready would have gone by now); nothing reaches this page.
  await expect(frame.getByLabel('Total to pay')).toBeVisible()
  await expectNothing(() => page.evaluate(() => (window as unknown as { got: unknown[] }).got), 1_000, 'messages from the frame')
})

test('iframe: a command from a foreign origin is ignored; one from the parent is obeyed', async ({ page }) => {
  await page.goto(partner('iframe', { flow: 'card' }))
  const frame = page.frameLocator('#widget iframe')
  await expect(frame.getByLabel('Total to pay')).toBeVisible()
  // A frame of another origin (localhost is not 127.0.0.1) tries to drive the widget.
  await page.evaluate(
    (foreign) => {
      const evil = document.createElement('iframe')
      evil.src = `${foreign}/examples/partner.css`
      evil.id = 'evil'
      document.body.appendChild(evil)
    },
    stack.apiBase.replace('127.0.0.1', 'localhost'),
  )
  await expect.poll(() => page.frames().some((f) => f.url().includes('localhost'))).toBe(true)
  await page
    .frames()
    .find((f) => f.url().includes('localhost'))!
    .evaluate(() => {
      window.parent.frames[0].postMessage({ source: 'stablecoin-widget-host', version: 1, kind: 'update', options: { amount: '666' } }, '*')
    })
  await page.waitForTimeout(500)
  await expect(frame.getByLabel('Total to pay')).toHaveValue('')
  await page.evaluate(() => (window as unknown as { widget: { update(o: object): void } }).widget.update({ amount: '75' }))
  await expect(frame.getByLabel('Total to pay')).toHaveValue('75')
})

test('custom element: a card purchase leaves for the card page and resumes on the partner page @extended', async ({ page }) => {
  await page.goto(partner('element', { flow: 'card' }))
  const el = page.locator('stablecoin-widget')
  await el.getByLabel('Total to pay').fill('60')
  await el.getByRole('button', { name: 'See what you get' }).click()
  await el.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[3])
  await el.getByRole('button', { name: 'Continue to payment' }).click()
  await expect(page.getByRole('heading', { name: 'Sandbox card page' })).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page).toHaveURL(/examples\/element\.html/)
  await expect(page.locator('stablecoin-widget').getByRole('heading', { name: 'Purchase complete' })).toBeVisible({ timeout: 30_000 })
  const names = (await events(page)).map((e) => e.name)
  expect(names).toEqual(expect.arrayContaining(['ready', 'status', 'complete']))
})

test('host CSS that restyles button, input and * leaves the widget unchanged @extended', async ({ browser }) => {
  // The computed style of every element in the widget, with and without the partner's hostile CSS:
  // what the host page's rules could reach, read directly (a picture also holds late content).
  const styles = async (withCss: boolean) => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } })
    if (!withCss) await page.route('**/examples/partner.css', (r) => r.fulfill({ status: 200, contentType: 'text/css', body: '' }))
    await page.goto(partner('script', { flow: 'card', amount: '50' }))
    const widget = page.locator('#widget .widget')
    await expect(widget.getByLabel('Total to pay')).toHaveValue('50')
    await expect(widget.getByText('Between 20 and 5,000 EUR per payment.')).toBeVisible()
    // Read once the widget has settled (the same twice in a row, nothing left loading): late
    // content (a notice that comes with an answer) is then in both readings or in neither.
    await page.waitForLoadState('networkidle')
    const read = () =>
      widget.evaluate((root) => {
        const props = [
          'color',
          'background-color',
          'font-family',
          'font-size',
          'font-weight',
          'text-transform',
          'letter-spacing',
          'border-top-width',
          'border-top-style',
          'border-radius',
          'padding-top',
          'padding-left',
          'margin-top',
          'box-shadow',
          'outline-style',
          'display',
        ]
        return [root, ...Array.from(root.querySelectorAll('button, input, select, label, h1, p, a, span'))].map((el) => {
          const cs = getComputedStyle(el)
          return `${el.tagName} "${(el.textContent ?? '').trim().slice(0, 32)}" ${props.map((p) => cs.getPropertyValue(p)).join('|')}`
        })
      })
    let seen = await read()
    await expect
      .poll(
        async () => {
          const before = seen
          seen = await read()
          return JSON.stringify(seen) === JSON.stringify(before)
        },
        { intervals: [300] },
      )
      .toBe(true)
    const hostileApplied = await page.evaluate(() => getComputedStyle(document.body).getPropertyValue('font-family'))
    await page.close()
    return { seen, hostileApplied }
  }
  const hostile = await styles(true)
  const plain = await styles(false)
  // The hostile sheet does apply to the page around the widget…
  expect(hostile.hostileApplied).not.toBe(plain.hostileApplied)
  // …and to nothing inside it.
  expect(hostile.seen.length).toBeGreaterThan(5)
  expect(hostile.seen).toEqual(plain.seen)
})

test('update changes the amount without a remount; unmount leaves no requests afterwards @extended', async ({ page }) => {
  await page.goto(partner('script', { flow: 'card' }))
  const widget = page.locator('#widget')
  await expect(widget.getByLabel('Total to pay')).toBeVisible()
  await widget.locator('.widget').evaluate((el) => ((el as unknown as { marker: number }).marker = 42))
  await page.evaluate(() => (window as unknown as { widget: { update(o: object): void } }).widget.update({ amount: '80', theme: 'dark' }))
  await expect(widget.getByLabel('Total to pay')).toHaveValue('80')
  await expect(widget.locator('.widget')).toHaveAttribute('data-theme', 'dark')
  expect(await widget.locator('.widget').evaluate((el) => (el as unknown as { marker?: number }).marker)).toBe(42)
  // A new locale reaches the words and the numbers alike, still without a remount.
  await expect(widget.locator('#total-window')).toContainText('5,000')
  await page.evaluate(() => (window as unknown as { widget: { update(o: object): void } }).widget.update({ locale: 'de' }))
  await expect(widget.getByLabel('Gesamtbetrag')).toHaveValue('80')
  await expect(widget.locator('#total-window')).toContainText('Zwischen 20 und 5.000 EUR')
  expect(await widget.locator('.widget').evaluate((el) => (el as unknown as { marker?: number }).marker)).toBe(42)
  await page.evaluate(() => (window as unknown as { widget: { update(o: object): void } }).widget.update({ locale: 'en' }))
  await expect(widget.getByLabel('Total to pay')).toBeVisible()
  // Ask for a quote (the limiter and the quote timer run), then unmount: nothing may go out afterwards.
  await widget.getByRole('button', { name: 'See what you get' }).click()
  await widget.getByLabel('Wallet address that receives the crypto').fill(stack.accounts[3])
  await page.evaluate(() => (window as unknown as { widget: { unmount(): void } }).widget.unmount())
  const unmountedAt = Date.now()
  await expect(widget.locator('.widget')).toHaveCount(0)
  const sb = sandboxOf(stack)
  await expectNothing(
    async () => (await sb.log()).filter((e) => e.t > unmountedAt + 200 && e.origin === stack.apiBase),
    await quietSpan(sb, 'pollMs', 6),
    'requests after unmount',
  )
})

test('unmount while a deposit waits for its receipt: the chain is not read again, and nothing else goes out @extended', async ({ page }) => {
  const source = (await wallet(page, 4)).holdDeposit(stack)
  await page.addInitScript(() => {
    const w = window as unknown as { fetches: string[] }
    w.fetches = []
    const original = window.fetch
    window.fetch = (input, init) => {
      w.fetches.push(input instanceof Request ? input.url : String(input))
      return original(input, init)
    }
  })
  try {
    await page.goto(partner('script'))
    const widget = page.locator('#widget')
    await widget.getByRole('button', { name: 'Test Wallet' }).click()
    await widget.getByLabel('Amount').fill('1')
    await widget.getByRole('button', { name: 'See the price' }).click()
    await widget.getByRole('button', { name: 'Confirm and send' }).click()
    await expect(widget.getByRole('heading', { name: 'Your deposit is on its way' })).toBeVisible()
    // Each fetch the page starts, in the order it starts (the browser's request events reach the test
    // later, so one started just before the unmount could look like one after it). The receipt is
    // polled on the chain's RPC now: the log sees it, a fetch started after the heading.
    const fetches = () => page.evaluate(() => (window as unknown as { fetches: string[] }).fetches)
    const shownAt = (await fetches()).length
    await expect.poll(async () => (await fetches()).slice(shownAt).some((url) => url.startsWith(source.rpcUrl))).toBe(true)
    const unmountedAt = await page.evaluate(() => {
      const w = window as unknown as { fetches: string[]; widget: { unmount(): void } }
      w.widget.unmount()
      return w.fetches.length
    })
    await expect(widget.locator('.widget')).toHaveCount(0)
    const after: string[] = []
    page.on('request', (r) => r.resourceType() !== 'fetch' && after.push(`${r.method()} ${r.url()}`))
    const fetchesAfter = async () => (await fetches()).slice(unmountedAt)
    // Over three drop checks and three receipt polls (every second) of the sandbox build, not one
    // fetch started after the unmount, and no other request.
    await expectNothing(async () => [...(await fetchesAfter()), ...after], Math.max(quietFor('dropCheckMs', 3), 3_000), 'requests after unmount')
  } finally {
    await mineAndResume(source.rpcUrl)
  }
})

test('a bad update is refused with a console error naming it; element attributes and the iframe theme command update live @extended', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  await page.goto(partner('script', { flow: 'card' }))
  const widget = page.locator('#widget')
  await widget.getByLabel('Total to pay').fill('12')
  await page.evaluate(() => (window as unknown as { widget: { update(o: object): void } }).widget.update({ amount: '1e3', theme: 'dark' }))
  await expect.poll(() => errors.find((e) => e.includes('amount'))).toContain('[stablecoin-widget] update: amount')
  await expect(widget.getByLabel('Total to pay')).toHaveValue('12')
  await expect(widget.locator('.widget')).not.toHaveAttribute('data-theme', 'dark')
  await page.evaluate(() => (window as unknown as { widget: { update(o: object): void } }).widget.update({ apiBase: 'https://evil.example' }))
  await expect.poll(() => errors.find((e) => e.includes('apiBase'))).toContain('cannot change after mounting')

  await page.goto(partner('element', { flow: 'card' }))
  const el = page.locator('stablecoin-widget')
  await expect(el.getByLabel('Total to pay')).toBeVisible()
  await el.evaluate((node) => {
    node.setAttribute('amount', '42')
    node.setAttribute('theme', 'dark')
  })
  await expect(el.getByLabel('Total to pay')).toHaveValue('42')
  await expect(el.locator('.widget')).toHaveAttribute('data-theme', 'dark')

  await page.goto(partner('iframe', { flow: 'card' }))
  const frame = page.frameLocator('#widget iframe')
  await expect(frame.getByLabel('Total to pay')).toBeVisible()
  // An update sent the moment the frame is created waits for the frame's page, then applies.
  await page.evaluate(() => {
    const el = document.createElement('div')
    el.id = 'early'
    document.body.append(el)
    const config = JSON.parse(document.querySelector<HTMLMetaElement>('meta[name="widget-config"]')!.content)
    const api = (window as unknown as { StablecoinWidget: { iframe(el: HTMLElement, o: object): { update(o: object): void } } }).StablecoinWidget
    api.iframe(el, config).update({ amount: '33' })
  })
  await expect(page.frameLocator('#early iframe').getByLabel('Total to pay')).toHaveValue('33')
  await page.evaluate((origin) => {
    const target = document.querySelector<HTMLIFrameElement>('#widget iframe')!.contentWindow!
    target.postMessage({ source: 'stablecoin-widget-host', version: 1, kind: 'theme', theme: 'dark', brand: { color: '#0a7d4f' } }, origin)
  }, WIDGET_ORIGIN)
  await expect(frame.locator('.widget')).toHaveAttribute('data-theme', 'dark')
})

test('the strict-CSP partner page runs the widget with no violation reported', async ({ page }) => {
  const violations: string[] = []
  await page.exposeFunction('__cspViolation', (v: string) => violations.push(v))
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    ),
  )
  await wallet(page, 3)
  const response = await page.goto(partner('csp'))
  expect(response?.headers()['content-security-policy']).toContain(`script-src 'self' ${WIDGET_ORIGIN}`)
  await deposit(page, '1')
  expect(violations).toEqual([])
})

for (const theme of ['light', 'dark'] as const) {
  // A pale yellow and a dark blue brand: each unreadable in one of the schemes as given.
  for (const brand of ['#ffd400', '#1d4ed8']) {
    test(`axe-clean in the ${theme} theme with brand colour ${brand}, in the script mode's shadow root${theme === 'light' && brand === '#ffd400' ? '' : ' @extended'}`, async ({
      page,
    }) => {
      await page.goto(partner('script', { flow: 'card', theme, brand, amount: '50' }))
      const widget = page.locator('#widget')
      await expect(widget.getByLabel('Total to pay')).toBeVisible()
      await widget.getByRole('button', { name: 'See what you get' }).click()
      await expect(widget.getByRole('button', { name: 'Continue to payment' })).toBeVisible()
      await expectAxeClean(page, `card quote, ${theme}, brand ${brand}`)
    })
  }
}

test('a bad option is a console error naming it, and a readable message instead of a blank box', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  await page.goto(partner('script', { flow: 'card', theme: 'neon' }))
  await expect(page.locator('#widget').getByRole('heading', { name: 'This widget is not set up correctly' })).toBeVisible()
  await expect(page.locator('#widget').getByText(/theme:/)).toBeVisible()
  expect(errors.some((e) => e.includes('[stablecoin-widget] theme:'))).toBe(true)
  const seen = await events(page)
  expect(seen).toContainEqual({ name: 'error', payload: expect.objectContaining({ code: 'bad_option', message: expect.stringMatching(/^theme/) }) })
})

test('two widgets on one page work side by side @extended', async ({ page }) => {
  await page.goto(partner('script', { flow: 'card' }))
  await expect(page.locator('#widget').getByLabel('Total to pay')).toBeVisible()
  await page.evaluate(() => {
    const second = document.createElement('div')
    second.id = 'second'
    document.body.appendChild(second)
    const config = JSON.parse((document.querySelector('meta[name="widget-config"]') as HTMLMetaElement).content)
    ;(window as unknown as { StablecoinWidget: { mount(el: Element, o: object): unknown } }).StablecoinWidget.mount(second, { ...config, amount: '30' })
  })
  const first = page.locator('#widget')
  const second = page.locator('#second')
  await first.getByLabel('Total to pay').fill('40')
  await expect(second.getByLabel('Total to pay')).toHaveValue('30')
  await first.getByRole('button', { name: 'See what you get' }).click()
  await second.getByRole('button', { name: 'See what you get' }).click()
  await expect(first.getByRole('row', { name: /You pay/ })).toContainText('40 EUR')
  await expect(second.getByRole('row', { name: /You pay/ })).toContainText('30 EUR')
})

test('every example partner page opens with no console error', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`))
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`))
  for (const [mode, heading] of [
    ['script', 'Connect your wallet'],
    ['markup', 'Connect your wallet'],
    ['element', 'Connect your wallet'],
    ['csp', 'Connect your wallet'],
  ] as const) {
    await page.goto(partner(mode))
    await expect(page.locator('#widget').getByRole('heading', { name: heading })).toBeVisible()
  }
  for (const mode of ['iframe', 'frame']) {
    await page.goto(partner(mode))
    await expect(page.frameLocator('#widget iframe').getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  }
  await page.goto(partner('hosted'))
  await page.getByRole('link', { name: 'Pay with stablecoins' }).click()
  await expect(page.getByRole('heading', { name: 'Connect your wallet', level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(errors).toEqual([])
})

// Issue 19: the script tag is a stub that queues calls until its runtime arrives; the pages ask for
// the flow's chunks from the HTML.
test("iframe(): the partner's page fetches the loader and its runtime only, never the widget's chunks", async ({ page }) => {
  const fromPartnerPage: string[] = []
  page.on('request', (r) => {
    if (r.frame() === page.mainFrame() && r.url().startsWith(WIDGET_ORIGIN)) fromPartnerPage.push(new URL(r.url()).pathname)
  })
  await page.goto(partner('iframe', { flow: 'card' }))
  await expect(page.frameLocator('#widget iframe').getByLabel('Total to pay')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(fromPartnerPage.map((p) => p.replace(/-[\w-]{8}\.js$/, '.js'))).toEqual(['/stablecoin-widget.js', '/assets/runtime.js'])
})

test("iframe() with a signed link: the frame starts with the runtime (not before: the loader's bytes went to its integrity check), which then runs it (events, size)", async ({
  page,
}) => {
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route(`${WIDGET_ORIGIN}/assets/runtime-*.js`, async (route) => {
    await held
    await route.continue()
  })
  const embed: string[] = []
  page.on('request', (r) => r.url().startsWith(`${WIDGET_ORIGIN}/embed.html?`) && embed.push(r.url()))
  const runtimeAsked = page.waitForRequest((r) => /\/assets\/runtime-[\w-]+\.js$/.test(r.url()))
  await page.goto(partner('iframe', { flow: 'card' }), { waitUntil: 'domcontentloaded' })
  await runtimeAsked
  await page.waitForTimeout(500)
  expect(embed).toEqual([])
  await expect(page.locator('#widget iframe')).toHaveCount(0)
  release()
  // The runtime made the frame: its size follows its content, events reach the page.
  await expect(page.frameLocator('#widget iframe').getByLabel('Total to pay')).toBeVisible()
  await expect.poll(() => page.locator('#widget iframe').evaluate((f) => (f as HTMLIFrameElement).style.height)).not.toBe('480px')
  await expect.poll(async () => (await events(page)).map((e) => e.name)).toContain('ready')
  await expect(page.locator('#widget iframe')).toHaveAttribute('title', 'Payment widget')
  await expect(page.locator('#widget iframe')).toHaveCount(1)
  expect(embed).toHaveLength(1)
})

// A declared frame: <iframe data-stablecoin-widget src="…signed embed link…"> in the partner's HTML.
const declaredFrame = (page: Page) => page.locator('#widget iframe[data-stablecoin-widget]')

test('declared iframe: it loads with the page before the loader, which then adopts it (size, DOM events); a deposit completes in it @extended', async ({
  page,
}) => {
  await wallet(page, 2)
  const fromPartnerPage: string[] = []
  page.on('request', (r) => {
    if (r.frame() === page.mainFrame() && r.url().startsWith(WIDGET_ORIGIN)) fromPartnerPage.push(new URL(r.url()).pathname)
  })
  // The loader and the page's own script are held back: the frame's page comes anyway, and draws
  // its first screen (the example page defers its script, which would otherwise hold the parser).
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  for (const url of [`${WIDGET_ORIGIN}/stablecoin-widget.js`, `${stack.apiBase}/examples/partner.js`]) {
    await page.route(url, async (route) => {
      await held
      await route.continue()
    })
  }
  // (DOMContentLoaded waits for a deferred script: only the response is awaited here.)
  await page.goto(partner('frame'), { waitUntil: 'commit' })
  const frame = page.frameLocator('#widget iframe[data-stablecoin-widget]')
  await expect(frame.getByRole('heading', { name: 'Connect your wallet' })).toBeVisible()
  expect(await page.evaluate(() => 'StablecoinWidget' in window)).toBe(false)
  await expect(declaredFrame(page)).toHaveJSProperty('style.height', '')
  release()
  // Adopted: its height follows its content (the partner's CSS said 480px), its events are DOM events.
  await expect.poll(() => declaredFrame(page).evaluate((f) => (f as HTMLIFrameElement).style.height)).toMatch(/^\d+px$/)
  await expect.poll(async () => (await events(page)).map((e) => e.name)).toContain('ready')
  await deposit(frame, '1.25')
  expectDepositEvents(await events(page), '1.25', 'order-42')
  // The partner's page fetched the loader and its runtime, none of the widget's own chunks.
  expect(fromPartnerPage.map((p) => p.replace(/-[\w-]{8}\.js$/, '.js'))).toEqual(['/stablecoin-widget.js', '/assets/runtime.js'])
  await expect(declaredFrame(page)).toHaveAttribute('title', 'Payment widget')
})

test('declared iframe: a loader that comes after the frame has started still learns its height and hears every event @extended', async ({ page }) => {
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route(`${WIDGET_ORIGIN}/stablecoin-widget.js`, async (route) => {
    await held
    await route.continue()
  })
  await page.goto(partner('frame', { flow: 'card' }), { waitUntil: 'domcontentloaded' })
  // The frame has loaded, and the app itself (not the drawn first screen) is up: its hello went unheard.
  await expect.poll(() => page.frame({ url: /\/embed\.html\?/ })?.evaluate(() => document.readyState)).toBe('complete')
  await expect(page.frameLocator('#widget iframe').locator('#app').getByLabel('Total to pay')).toBeVisible()
  release()
  // Its height, and every event it had for the partner, in order from the first (ready).
  await expect.poll(() => declaredFrame(page).evaluate((f) => (f as HTMLIFrameElement).style.height)).toMatch(/^\d+px$/)
  const height = await declaredFrame(page).evaluate((f) => f.getBoundingClientRect().height)
  const content = await page
    .frameLocator('#widget iframe')
    .locator('html')
    .evaluate((h) => h.scrollHeight)
  expect(Math.abs(height - content)).toBeLessThanOrEqual(1)
  await expect.poll(async () => (await events(page)).map((e) => e.name)).toEqual(['ready', 'screen'])
})

test('declared iframe: one showing any other page is refused by name and never adopted', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  // A partner's page with a declared frame showing another page of the widget's origin, then the loader.
  await page.goto(`${stack.apiBase}/examples/partner.css`)
  await page.evaluate((widget) => {
    const heard: unknown[] = []
    ;(window as unknown as { widgetEvents: unknown[] }).widgetEvents = heard
    document.addEventListener('stablecoin-widget', (e) => heard.push((e as CustomEvent).detail))
    const frame = document.createElement('iframe')
    frame.dataset.stablecoinWidget = ''
    frame.src = `${widget}/sri.json`
    document.body.innerHTML = '<div id="widget"></div>'
    document.getElementById('widget')!.append(frame)
  }, WIDGET_ORIGIN)
  await page.addScriptTag({ url: `${WIDGET_ORIGIN}/stablecoin-widget.js` })
  await expect.poll(() => errors.join('\n')).toContain("a declared iframe must show this widget's embed page")
  await page.evaluate(() => document.dispatchEvent(new Event('DOMContentLoaded')))
  await page.waitForLoadState('networkidle')
  expect(errors.filter((e) => e.includes('declared iframe'))).toHaveLength(1)
  await expect(declaredFrame(page)).toHaveJSProperty('style.height', '')
  expect(await events(page)).toEqual([])
})

test('script tag: a handle works before the runtime arrives (calls keep their order), and a runtime that cannot load is an error event @extended', async ({
  page,
}) => {
  // Hold the runtime back: on() and update() are made on the stub's handle, then the runtime arrives.
  let release = () => {}
  const held = new Promise<void>((r) => (release = r))
  await page.route(`${WIDGET_ORIGIN}/assets/runtime-*.js`, async (route) => {
    await held
    await route.continue()
  })
  await page.goto(partner('script', { flow: 'card' }), { waitUntil: 'domcontentloaded' })
  await page.waitForFunction(() => 'StablecoinWidget' in window)
  await page.evaluate(() => {
    const w = window as unknown as {
      StablecoinWidget: { mount(el: HTMLElement, o: object): { on(n: string, l: (p: unknown) => void): unknown; update(o: object): void } }
      early: string[]
    }
    w.early = []
    const el = document.createElement('div')
    el.id = 'early'
    document.body.append(el)
    const handle = w.StablecoinWidget.mount(el, { ...JSON.parse(document.querySelector<HTMLMetaElement>('meta[name="widget-config"]')!.content), amount: '30' })
    handle.on('ready', () => w.early.push('ready'))
    handle.update({ amount: '70' })
  })
  release()
  await expect(page.locator('#early').getByLabel('Total to pay')).toHaveValue('70')
  expect(await page.evaluate(() => (window as unknown as { early: string[] }).early)).toEqual(['ready'])

  // A runtime that does not load: the listener registered at once hears load_failed.
  const other = await page.context().newPage()
  await other.route(`${WIDGET_ORIGIN}/assets/runtime-*.js`, (route) => route.fulfill({ status: 503, body: '' }))
  await other.goto(partner('script', { flow: 'card' }))
  const payload = await other.evaluate(
    () =>
      new Promise((resolve) => {
        const w = window as unknown as { StablecoinWidget: { mount(el: HTMLElement, o: object): { on(n: string, l: (p: unknown) => void): unknown } } }
        const el = document.createElement('div')
        document.body.append(el)
        w.StablecoinWidget.mount(el, { flow: 'card' }).on('error', resolve)
      }),
  )
  expect(payload).toMatchObject({ code: 'load_failed' })
})

test('hosted page: the HTML asks for the flow the link names at once, under the strict CSP, with no violation', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  const requested: string[] = []
  page.on('request', (r) => requested.push(new URL(r.url()).pathname))
  const response = await page.goto(cardUrl(stack))
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/)
  await expect(page.getByLabel('Total to pay')).toBeVisible()
  const preloaded = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((l) => new URL(l.href).pathname))
  const card = preloaded.find((p) => /\/assets\/CardFlow-/.test(p))
  expect(card).toBeDefined()
  // Asked for once: the flow's import finds the preloaded module.
  expect(requested.filter((p) => p === card)).toHaveLength(1)
  expect(errors).toEqual([])
})
