// The script tag takes its base from its own <script src>, which markup on the partner's page cannot
// replace (issue 28, finding 1).
import type { Page } from '@playwright/test'
import { expect, test } from './helpers'
import { SANDBOX_ORIGIN, type StackConfig, stackConfig } from './stack'

let stack: StackConfig
test.beforeAll(() => {
  stack = stackConfig()
})

const partner = (mode: string, query: Record<string, string> = {}) => `${stack.apiBase}/examples/${mode}.html?${new URLSearchParams(query)}`
const EVIL = 'https://evil.example'
// What the markup itself points at: the only request to the foreign origin the page makes by itself.
const BAIT = `${EVIL}/x/`

function consoleErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(`uncaught ${e.message}`))
  return errors
}

/**
 * The foreign origin answers everything with script that marks the page (so code of its running is
 * seen), and every request to it is counted, from the page and its frames.
 */
async function foreignOrigin(page: Page): Promise<string[]> {
  const asked: string[] = []
  page.context().on('request', (r) => r.url().startsWith(`${EVIL}/`) && asked.push(r.url()))
  await page.context().route(`${EVIL}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'Access-Control-Allow-Origin': '*' }, body: 'window.foreignCode = true; export const start = () => { throw 1 }; export const mountWidget = () => {}' }),
  )
  return asked
}

/**
 * The example page at `url`, with `markup` placed right above the loader's tag, parsed as the page's
 * own HTML in a document of the partner's origin. (Fulfilling the navigation itself would make the
 * page "public" to Chromium, which then refuses its requests to the loopback widget origin.)
 */
async function openWithMarkup(page: Page, url: string, markup: string) {
  const html = (await (await page.request.get(url)).text()).replace('<script id="loader"', () => `${markup}\n    <script id="loader"`)
  expect(html).toContain(markup)
  await page.goto(`${stack.apiBase}/examples/partner.css`)
  await page.setContent(html)
}

// Markup, no script, that makes `document.currentScript` name something else on the page.
const CLOBBERS: Array<[string, string]> = [
  ['an <img name>', `<img name="currentScript" src="${BAIT}" alt="">`],
  ['an <img> with that id and a name', `<img id="currentScript" name="any" src="${BAIT}" alt="">`],
  ['an <embed name>', `<embed name="currentScript" src="${BAIT}">`],
  ['a <form name> with a field named src', `<form name="currentScript"><input name="src" value="${BAIT}"></form>`],
  ['two <img name>, a collection', `<img name="currentScript" src="${BAIT}" alt=""><img name="currentScript" src="${BAIT}" alt="">`],
]

for (const [what, markup] of CLOBBERS) {
  test(`a page whose markup names ${what} "currentScript" gets no widget, a console error, and nothing from another origin`, async ({ page }) => {
    const asked = await foreignOrigin(page)
    const errors = consoleErrors(page)
    await openWithMarkup(page, partner('markup', { flow: 'card' }), markup)
    await expect.poll(() => errors.join('\n')).toContain('[stablecoin-widget] not started')
    await page.waitForLoadState('networkidle')
    expect(await page.evaluate(() => 'foreignCode' in window)).toBe(false)
    expect(asked.filter((u) => u !== BAIT)).toEqual([])
    // No widget: the loader defined nothing, and the declared one stays an empty <div>.
    expect(await page.evaluate(() => ['StablecoinWidget' in window, !!customElements.get('stablecoin-widget')])).toEqual([false, false])
    expect(await page.locator('#widget [data-stablecoin-widget]').evaluate((el) => [el.shadowRoot, el.childElementCount])).toEqual([null, 0])
  })
}

test('a page naming an <a id> "currentScript" (window.currentScript, not the document\'s): the widget starts from its own origin, nothing from the other', async ({ page }) => {
  const asked = await foreignOrigin(page)
  const errors = consoleErrors(page)
  await openWithMarkup(page, partner('markup', { flow: 'card' }), `<a id="currentScript" href="${BAIT}">elsewhere</a>`)
  await expect(page.locator('#widget').getByLabel('Total to pay')).toBeVisible()
  expect(await page.evaluate(() => 'foreignCode' in window)).toBe(false)
  expect(asked).toEqual([])
  expect(errors.filter((e) => e.includes('stablecoin-widget'))).toEqual([])
})

test("the loader's code run from any other script than its own file (here inline) does not start, and says why", async ({ page }) => {
  const errors = consoleErrors(page)
  const code = await (await page.request.get(`${SANDBOX_ORIGIN}/stablecoin-widget.js`)).text()
  expect(code).toContain('StablecoinWidget')
  await page.goto(`${stack.apiBase}/examples/partner.css`)
  await page.addScriptTag({ content: code })
  await expect.poll(() => errors.join('\n')).toContain('[stablecoin-widget] not started: document.currentScript is not stablecoin-widget.js')
  expect(await page.evaluate(() => 'StablecoinWidget' in window)).toBe(false)
})

test('a loader the partner serves itself under a relative src (async, as the README writes it), with a <base href> in the markup after its tag: nothing from another origin runs', async ({ page }) => {
  const asked = await foreignOrigin(page)
  // The partner serves the widget's files from its own origin, under /w/ (here the sandbox build's
  // files); the loader arrives a moment later, so the page's later markup is parsed before it runs.
  await page.route(`${stack.apiBase}/w/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice('/w'.length)
    const response = await page.request.get(`${SANDBOX_ORIGIN}${path}`)
    if (path === '/stablecoin-widget.js') await new Promise((resolve) => setTimeout(resolve, 300))
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } })
  })
  const html = (await (await page.request.get(partner('markup', { flow: 'card' }))).text()).replace(
    /<script id="loader" src="[^"]*"/,
    () => '<script id="loader" src="/w/stablecoin-widget.js"',
  )
  await page.goto(`${stack.apiBase}/examples/partner.css`)
  // The markup (a comment field, say) comes after the loader's tag: the loader was fetched from the
  // partner's origin, and this base is the document's only one.
  await page.setContent(html.replace('<div id="log"', () => `<base href="${BAIT}"><div id="log"`))
  // The widget starts from where its loader came from, the partner's origin; nothing from the other.
  await expect(page.locator('#widget').getByLabel('Total to pay')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(await page.evaluate(() => 'foreignCode' in window)).toBe(false)
  expect(asked.filter((u) => u !== BAIT && !u.startsWith(`${BAIT}examples/`))).toEqual([])
})
