// Adopting a frame, as a partner's page or an attacker would try it (from the review of the declared
// iframe): the widget served from the partner's own origin, and frames that do not show the embed page.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
// @ts-expect-error: plain ESM module of the sandbox
import { serveStatic } from '../test/sandbox/static.mjs'
import { expect, test } from './helpers'
import { PORTS_OFFSET, SANDBOX_DIST, SANDBOX_ORIGIN, type StackConfig, stackConfig } from './stack'

let stack: StackConfig
const WIDGET_ORIGIN = SANDBOX_ORIGIN

const partner = (mode: string, query: Record<string, string> = {}) => `${stack.apiBase}/examples/${mode}.html?${new URLSearchParams(query)}`
const unescapeHtml = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
type Recorded = { name: string; payload: Record<string, unknown> }
const events = (page: Page) => page.evaluate(() => (window as unknown as { widgetEvents: Recorded[] }).widgetEvents)
const height = (page: Page) => page.locator('#widget iframe').evaluate((f) => (f as HTMLIFrameElement).style.height)

/** The signed embed link the example `frame` page declares (signed as the partner's server signs it). */
async function signedLink(flow = 'card'): Promise<string> {
  const html = await (await fetch(partner('frame', { flow }))).text()
  return unescapeHtml(/<iframe data-stablecoin-widget src="([^"]+)"/.exec(html)![1])
}

function watch(page: Page) {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`))
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  return errors
}

/** A page of `origin` with <div id="widget"> holding a declared frame with these attributes (none: no frame). */
async function pageWith(page: Page, origin: string, attrs?: Record<string, string>) {
  await page.goto(`${origin}/examples/partner.css`)
  await page.evaluate((attrs) => {
    const heard: unknown[] = []
    ;(window as unknown as { widgetEvents: unknown[] }).widgetEvents = heard
    document.addEventListener('stablecoin-widget', (e) => heard.push((e as CustomEvent).detail))
    document.body.innerHTML = '<div id="widget"></div>'
    if (!attrs) return
    const frame = document.createElement('iframe')
    frame.dataset.stablecoinWidget = ''
    for (const [k, v] of Object.entries(attrs)) frame.setAttribute(k, v)
    document.getElementById('widget')!.append(frame)
  }, attrs)
}

// ---- The widget served from the partner's own origin (that origin registered as the parent) ----
// A copy of this worker's sandbox build, served on another port, whose registry entry also names that
// port's origin as a parent (registry and frame-ancestors). REVIEW_SAME_ORIGIN_DIST serves another
// build instead (e.g. the previous commit's), with this run's registry block copied in.
const SAME = `http://127.0.0.1:${4179 + PORTS_OFFSET}`
let server: { close(): Promise<void> } | undefined
test.beforeAll(async () => {
  stack = stackConfig()
  const dir = `/tmp/review-declared-frame-same-origin${PORTS_OFFSET ? `-${PORTS_OFFSET}` : ''}`
  rmSync(dir, { recursive: true, force: true })
  cpSync(process.env.REVIEW_SAME_ORIGIN_DIST ?? SANDBOX_DIST, dir, { recursive: true })
  const block = /<script type="application\/json" id="stablecoin-widget-partners">[\s\S]*?<\/script>/
  const registry = block.exec(readFileSync(`${SANDBOX_DIST}/embed.html`, 'utf8'))![0].replace(/"parentOrigins":\["/, `"parentOrigins":["${SAME}","`)
  writeFileSync(
    `${dir}/embed.html`,
    readFileSync(`${dir}/embed.html`, 'utf8').replace(block, () => registry),
  )
  writeFileSync(`${dir}/_headers`, readFileSync(`${dir}/_headers`, 'utf8').replaceAll('frame-ancestors http', `frame-ancestors ${SAME} http`))
  server = await serveStatic({ dir, port: 4179 + PORTS_OFFSET })
})
test.afterAll(async () => {
  await server?.close()
})

type Api = { StablecoinWidget: { iframe(el: Element, o: object): { on(n: string, l: (p: unknown) => void): unknown; update(o: object): void } } }
/** iframe() with a signed link, its events recorded in widgetEvents. */
const callIframe = (page: Page, link: string) =>
  page.evaluate((link) => {
    const heard = (window as unknown as { widgetEvents: unknown[] }).widgetEvents
    const h = (window as unknown as Api).StablecoinWidget.iframe(document.getElementById('widget')!, { link })
    for (const name of ['ready', 'screen', 'quote', 'error']) h.on(name, (payload) => heard.push({ name, payload }))
  }, link)

const frameUp = async (page: Page) => {
  await expect.poll(() => page.frame({ url: /\/embed\.html\?/ })?.evaluate(() => document.readyState)).toBe('complete')
  await expect(page.frameLocator('#widget iframe').locator('#app').getByLabel('Total to pay')).toBeVisible()
}

test('same origin (control): iframe() with the runtime at once: the frame is heard (events, height) @extended', async ({ page }) => {
  const link = (await signedLink()).replace(WIDGET_ORIGIN, SAME)
  await pageWith(page, SAME)
  await page.addScriptTag({ url: `${SAME}/stablecoin-widget.js` })
  await callIframe(page, link)
  await expect.poll(async () => (await events(page)).map((e) => e.name)).toContain('ready')
  await expect.poll(() => height(page)).not.toBe('480px')
})

test('same origin: a declared frame the loader adopts after it has loaded still reports its events and its height @extended', async ({ page }) => {
  const link = (await signedLink()).replace(WIDGET_ORIGIN, SAME)
  await pageWith(page, SAME, { src: link })
  await frameUp(page)
  await page.addScriptTag({ url: `${SAME}/stablecoin-widget.js` })
  await expect.poll(async () => (await events(page)).map((e) => e.name), { timeout: 10_000 }).toContain('ready')
  await expect.poll(() => height(page), { timeout: 5_000 }).toMatch(/^\d+px$/)
})

// ---- Adoption: a frame not showing the embed page ----

test('declared iframe with a srcdoc (it shows that document, not its src) is refused by name and never adopted', async ({ page }) => {
  const errors = watch(page)
  await pageWith(page, stack.apiBase, { src: await signedLink(), srcdoc: '<p>Not the widget</p>' })
  await expect(page.frameLocator('#widget iframe').getByText('Not the widget')).toBeVisible()
  await page.addScriptTag({ url: `${WIDGET_ORIGIN}/stablecoin-widget.js` })
  await expect.poll(() => errors.join('\n'), { timeout: 5_000 }).toContain("a declared iframe must show this widget's embed page")
  // Not adopted: the runtime gave it no title of its own.
  await expect(page.locator('#widget iframe')).not.toHaveAttribute('title', 'Payment widget')
})

test('declared iframe with an unparseable src is refused by name, with no uncaught error', async ({ page }) => {
  const errors = watch(page)
  await pageWith(page, stack.apiBase, { src: 'http://[::1' })
  await page.addScriptTag({ url: `${WIDGET_ORIGIN}/stablecoin-widget.js` })
  await expect.poll(() => errors.join('\n'), { timeout: 5_000 }).toContain("a declared iframe must show this widget's embed page")
  await page.waitForTimeout(500)
  expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([])
})
// The frame's queue while no parent has said hello (the newest kept): test/unit/embed/guestQueue.test.ts.
