// The script tag takes its base from its own <script src>, which markup on the partner's page cannot
// replace (issue 28, finding 1).
import type { Page, Route } from '@playwright/test'
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
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      headers: { 'Access-Control-Allow-Origin': '*' },
      body: 'window.foreignCode = true; export const start = () => { throw 1 }; export const mountWidget = () => {}',
    }),
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
  ['an <iframe name> (the name gives its window)', `<iframe name="currentScript" src="${BAIT}"></iframe>`],
  ['an <object id>', `<object id="currentScript" data="${BAIT}"></object>`],
]

for (const [what, markup] of CLOBBERS) {
  test(`a page whose markup names ${what} "currentScript" gets no widget, a console error, and nothing from another origin${what === CLOBBERS[0][0] ? '' : ' @extended'}`, async ({
    page,
  }) => {
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

test('a page naming an <a id> "currentScript" (window.currentScript, not the document\'s): the widget starts from its own origin, nothing from the other', async ({
  page,
}) => {
  const asked = await foreignOrigin(page)
  const errors = consoleErrors(page)
  await openWithMarkup(page, partner('markup', { flow: 'card' }), `<a id="currentScript" href="${BAIT}">elsewhere</a>`)
  await expect(page.locator('#widget').getByLabel('Total to pay')).toBeVisible()
  expect(await page.evaluate(() => 'foreignCode' in window)).toBe(false)
  expect(asked).toEqual([])
  expect(errors.filter((e) => e.includes('stablecoin-widget'))).toEqual([])
})

// The check reads `document.currentScript` and requires an HTMLScriptElement: the names it reaches
// through the global object (HTMLScriptElement, and what the loader uses after it) are the global's
// own properties, which a page's named elements cannot shadow.
test('a page whose markup takes the names of the globals the loader uses (HTMLScriptElement, Reflect, Document, URL, Object, Promise): the widget starts from its own origin, nothing from the other', async ({
  page,
}) => {
  const asked = await foreignOrigin(page)
  const errors = consoleErrors(page)
  const markup = [
    `<img name="HTMLScriptElement" src="${BAIT}" alt="">`,
    `<form name="Reflect"><input name="get" value="${BAIT}"></form>`,
    `<img name="Document" src="${BAIT}" alt="">`,
    `<form id="URL"></form><img name="Object" src="${BAIT}" alt=""><embed name="Promise" src="${BAIT}">`,
  ].join('')
  await openWithMarkup(page, partner('markup', { flow: 'card' }), markup)
  await expect(page.locator('#widget').getByLabel('Total to pay')).toBeVisible()
  expect(await page.evaluate(() => 'foreignCode' in window)).toBe(false)
  expect(asked.filter((u) => u !== BAIT)).toEqual([])
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

test('a loader the partner serves itself under a relative src (async, as docs/embedding.md writes it), with a <base href> in the markup after its tag: nothing from another origin runs', async ({
  page,
}) => {
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

// The runtime is checked against the hash the build wrote into the loader: a runtime altered on the
// widget's own origin (a CDN, a cache) runs none of its code in the partner's page.
const RUNTIME = () => `${SANDBOX_ORIGIN}/assets/runtime-*.js`
const TAMPERED = 'window.tamperedCode = (window.tamperedCode ?? 0) + 1;\n'

/**
 * Serves the runtime as `how` says (tampered: a line of foreign code in front of it; 503: not at
 * all; whole: as built), switchable; lists the runtime's requests.
 */
async function runtimeServed(page: Page, first: 'tampered' | '503') {
  const asked: string[] = []
  page.context().on('request', (r) => /\/assets\/runtime-[\w-]+\.js$/.test(r.url()) && asked.push(r.url()))
  let how: 'tampered' | '503' | 'whole' = first
  await page.context().route(RUNTIME(), async (route: Route) => {
    if (how === '503') return route.fulfill({ status: 503, body: '' })
    const real = await route.fetch()
    await route.fulfill({ response: real, body: `${how === 'tampered' ? TAMPERED : ''}${await real.text()}` })
  })
  return { asked, serve: (next: typeof how) => void (how = next) }
}

/** The errors the example page's partner heard: [code, has a message]. */
const errorsHeard = async (page: Page) =>
  (await page.evaluate(() => (window as unknown as { widgetEvents: Array<{ name: string; payload: { code: string; message: unknown } }> }).widgetEvents))
    .filter((e) => e.name === 'error')
    .map((e) => [e.payload.code, typeof e.payload.message === 'string' && e.payload.message.length > 0])

const tamperedRan = (page: Page) => page.evaluate(() => 'tamperedCode' in window)

/** A declared widget's page once settled: it heard load_failed (once per failed call), and none of the tampered code ran. */
async function declaredFailed(page: Page) {
  await expect.poll(async () => (await errorsHeard(page)).length).toBeGreaterThan(0)
  await page.waitForLoadState('networkidle')
  expect(new Set((await errorsHeard(page)).map((e) => JSON.stringify(e)))).toEqual(new Set([JSON.stringify(['load_failed', true])]))
  expect(await tamperedRan(page)).toBe(false)
}

/** The script-tag page whose runtime did not arrive (503) on the first call: it heard load_failed. */
async function firstCallFailed(page: Page) {
  const runtime = await runtimeServed(page, '503')
  await page.goto(partner('script', { flow: 'card' }))
  await expect.poll(() => errorsHeard(page)).toEqual([['load_failed', true]])
  return runtime
}

type Api = { mount(el: HTMLElement, o: unknown): { on(n: string, l: (p: unknown) => void): unknown } }

/**
 * mount() called again, with the page's own options, into a new element (#again): resolves with the
 * first error its handle hears, or with null once the widget has drawn its first field.
 */
const mountAgain = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const config = JSON.parse(document.querySelector<HTMLMetaElement>('meta[name="widget-config"]')!.content)
        document.getElementById('again')?.remove()
        const el = document.createElement('div')
        el.id = 'again'
        document.getElementById('widget')!.after(el)
        const handle = (window as unknown as { StablecoinWidget: Api }).StablecoinWidget.mount(el, config)
        handle.on('error', resolve)
        handle.on('ready', () => resolve(null))
      }),
  )

test('a tampered runtime runs none of its code: mount() hears load_failed, and so does a second mount(), which runs none of it either', async ({ page }) => {
  const runtime = await runtimeServed(page, 'tampered')
  await page.goto(partner('script', { flow: 'card' }))
  await expect.poll(() => errorsHeard(page)).toEqual([['load_failed', true]])
  expect(runtime.asked).toHaveLength(1)
  expect(await tamperedRan(page)).toBe(false)
  expect(await mountAgain(page)).toMatchObject({ code: 'load_failed' })
  await page.waitForLoadState('networkidle')
  expect(await tamperedRan(page)).toBe(false)
  await expect(page.locator('#widget')).toBeEmpty()
})

test('a declared widget whose runtime was tampered with fires its error event (load_failed) and runs none of it', async ({ page }) => {
  const runtime = await runtimeServed(page, 'tampered')
  await page.goto(partner('markup', { flow: 'card' }))
  // (The loader connects the declared widget at once and again once the document is parsed: each failed call says so.)
  await declaredFailed(page)
  expect(runtime.asked.length).toBeGreaterThan(0)
  expect(await page.locator('#widget [data-stablecoin-widget]').evaluate((el) => el.shadowRoot)).toBe(null)
})

// The check's own names on the document (head, createElement) can be taken by markup too.
for (const markup of ['<img name="head" alt="">', '<form name="head"></form>', '<iframe name="head"></iframe>', '<form name="createElement"></form>']) {
  test(`a tampered runtime on a page with ${markup}: its error event (load_failed), none of its code${markup === '<img name="head" alt="">' ? '' : ' @extended'}`, async ({
    page,
  }) => {
    await runtimeServed(page, 'tampered')
    await openWithMarkup(page, partner('markup', { flow: 'card' }), markup)
    await declaredFailed(page)
  })
}

test('after a runtime that did not arrive, the next call fetches it again and checks it: tampered by then, it runs none of it', async ({ page }) => {
  const runtime = await firstCallFailed(page)
  runtime.serve('tampered')
  expect(await mountAgain(page)).toMatchObject({ code: 'load_failed' })
  expect(runtime.asked).toHaveLength(2)
  await page.waitForLoadState('networkidle')
  expect(await tamperedRan(page)).toBe(false)
})

test('after a runtime that did not arrive, the next call starts the widget, fetching the runtime once more (import() takes the checked one) @extended', async ({
  page,
}) => {
  const runtime = await firstCallFailed(page)
  runtime.serve('whole')
  expect(await mountAgain(page)).toBe(null)
  await expect(page.locator('#again').getByLabel('Total to pay')).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(runtime.asked).toHaveLength(2)
})

// Markup can declare a widget too (a comment field, a product description): it may choose what a
// buyer may (flow, amount, theme…), never where money and identity go. The service's settings of a
// declared widget come from the loader's own <script> tag, which markup cannot change.
const INJECTED: Array<[string, string, string]> = [
  [
    'a declared <div>',
    'markup',
    `<div id="injected" data-stablecoin-widget data-flow="card" data-amount="50" data-api-base="${EVIL}/api" data-partner-base="${EVIL}/partner" data-card-hosts="evil.example" data-identity-url="${EVIL}/id"></div>`,
  ],
  [
    'a <stablecoin-widget>',
    'element',
    `<stablecoin-widget id="injected" flow="card" amount="50" api-base="${EVIL}/api" partner-base="${EVIL}/partner" card-hosts="evil.example" data-return-url="${EVIL}/back"></stablecoin-widget>`,
  ],
]
for (const [what, mode, markup] of INJECTED) {
  test(`${what} injected beside the partner's own widget takes the loader tag's service settings: nothing goes to another origin, and the console names what it ignored${mode === 'element' ? ' @extended' : ''}`, async ({
    page,
  }) => {
    const asked = await foreignOrigin(page)
    const warnings: string[] = []
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
    if (mode === 'markup') {
      // In the page's own HTML, below the partner's widget (a comment field, say).
      const html = (await (await page.request.get(partner(mode, { flow: 'card' }))).text()).replace('<div id="log"', () => `${markup}<div id="log"`)
      await page.goto(`${stack.apiBase}/examples/partner.css`)
      await page.setContent(html)
    } else {
      // A comment the partner's script renders into the page (innerHTML): a custom element upgrades
      // there too. (In a page written by setContent, Chromium upgrades no custom element at all.)
      await page.goto(partner(mode, { flow: 'card' }))
      await page.locator('#log').evaluate((log, html) => log.insertAdjacentHTML('beforebegin', html), markup)
    }
    // The partner's own widget works, and so does the injected one, with the partner's settings.
    await expect(page.locator('#widget').getByLabel('Total to pay')).toBeVisible()
    await expect(page.locator('#injected').getByLabel('Total to pay')).toHaveValue('50')
    await page.locator('#injected').getByRole('button', { name: 'See what you get' }).click()
    // Its price came back, from the loader tag's service: every request that click makes is made.
    await expect(page.locator('#injected').getByRole('heading', { name: 'Check your purchase' })).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(asked).toEqual([])
    expect(await page.evaluate(() => 'foreignCode' in window)).toBe(false)
    for (const name of ['apiBase', 'partnerBase', 'cardHosts']) expect(warnings.join('\n')).toContain(`[stablecoin-widget] ${name}`)
  })
}
