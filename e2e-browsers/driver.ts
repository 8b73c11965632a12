// The one place where the two drivers differ: Firefox ESR through puppeteer-core over WebDriver
// BiDi, WebKitGTK's MiniBrowser through selenium-webdriver and WebKitWebDriver (classic WebDriver).
// Specs see a small Playwright-like page API (goto, locators by role, label, text or CSS, click,
// fill, selectOption, evaluate, frames, console errors) and `expect` with Playwright's matcher
// names, so a spec reads like its Playwright twin in e2e/.
import { type ChildProcess, spawn } from 'node:child_process'
import { freePort } from '../test/unit/helpers/freePort'
import { expect as pwExpect } from '@playwright/test'
import puppeteer, {
  type Browser as PBrowser,
  type ElementHandle,
  type BrowserContext as PContext,
  type Frame as PFrame,
  type Page as PPage,
} from 'puppeteer-core'
import { Builder, Key, type WebDriver, type WebElement } from 'selenium-webdriver'
import { INPAGE, type Match, type Seen, type Step } from './inpage'

export type Engine = 'firefox' | 'webkit'
export const ENGINES: Record<Engine, { binary: string; name: string }> = {
  firefox: { binary: process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr', name: 'Firefox ESR' },
  webkit: { binary: process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver', name: 'WebKitGTK (MiniBrowser)' },
}

type TextArg = string | RegExp
const toMatch = (t: TextArg, exact?: boolean): Match => (t instanceof RegExp ? { regex: t.source, flags: t.flags } : { text: t, exact })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const script = (op: string, steps: Step[], arg?: unknown) => `(${INPAGE})(${JSON.stringify(op)}, ${JSON.stringify(steps)}, ${JSON.stringify(arg ?? null)})`
export const DEFAULT_TIMEOUT = 20_000

/** What one engine must do; everything else (waiting, matching, asserting) is shared. */
interface Backend {
  /** Runs `source` (an expression) in the frame `path` (CSS of iframes from the top) and returns its value. */
  run<T>(path: string[], source: string): Promise<T>
  /** Runs `source`, which yields `{ el }`, and then `act` on that element with the engine's native input. */
  act(path: string[], source: string, act: 'click' | 'type', text?: string): Promise<{ count: number; ready: boolean }>
  /** Runs `fn(element, arg)` on the one element `source` yields. */
  onElement<T>(path: string[], source: string, fn: string, arg: unknown): Promise<T>
  goto(url: string): Promise<void>
  url(): Promise<string>
  reload(): Promise<void>
  errors(): Promise<string[]>
  close(): Promise<void>
}

export class Locator {
  constructor(
    private readonly backend: Backend,
    readonly frame: string[],
    readonly steps: Step[],
  ) {}
  private with(step: Step) {
    return new Locator(this.backend, this.frame, [...this.steps, step])
  }
  locator(css: string) {
    return this.with({ css })
  }
  getByRole(role: string, options: { name?: TextArg; exact?: boolean; level?: number } = {}) {
    return this.with({ role, name: options.name === undefined ? undefined : toMatch(options.name, options.exact), level: options.level })
  }
  getByLabel(text: TextArg, options: { exact?: boolean } = {}) {
    return this.with({ label: toMatch(text, options.exact) })
  }
  getByText(text: TextArg, options: { exact?: boolean } = {}) {
    return this.with({ text: toMatch(text, options.exact) })
  }
  filter(options: { hasText: TextArg }) {
    return this.with({ hasText: toMatch(options.hasText) })
  }
  first() {
    return this.with({ nth: 0 })
  }
  nth(n: number) {
    return this.with({ nth: n })
  }
  toString() {
    return `${this.frame.map((f) => `frame(${f}) > `).join('')}${this.steps.map((s) => JSON.stringify(s)).join(' > ')}`
  }
  /** What the page shows for every match now (no waiting). */
  inspect(): Promise<Seen[]> {
    return this.backend.run(this.frame, script('inspect', this.steps))
  }
  /** Where the page is, for a failure's message: its address and the start of its text. */
  async where() {
    const text = await this.backend
      .run<string>(this.frame, 'document.body ? document.body.innerText.slice(0, 400) : "(no body)"')
      .catch((e: Error) => `(unreadable: ${e.message})`)
    return `the page at ${await this.backend.url().catch(() => '?')} shows ${JSON.stringify(text)}`
  }
  async count() {
    return (await this.inspect()).length
  }
  private run<T>(op: 'prepareFill' | 'select', arg?: unknown) {
    return this.backend.run<{ count: number; ready: boolean } & T>(this.frame, script(op, this.steps, arg))
  }
  /** Waits until exactly one match is visible and enabled, then acts on it; tells what it found otherwise. */
  private async until<T>(what: string, attempt: () => Promise<{ count: number; ready: boolean } & T>, timeout = DEFAULT_TIMEOUT) {
    const end = Date.now() + timeout
    let last: { count: number; ready: boolean } | undefined
    for (;;) {
      last = await attempt().catch((e: Error) => ({ count: -1, ready: false, error: e.message }))
      if (last.ready) return last as T & { count: number; ready: boolean }
      if (Date.now() > end) throw new Error(`${what} ${this}: ${last.count} match(es), none ready to act on ${JSON.stringify(last)}; ${await this.where()}`)
      await sleep(100)
    }
  }
  async click(options: { timeout?: number } = {}) {
    await this.until('click', () => this.backend.act(this.frame, script('element', this.steps), 'click'), options.timeout)
  }
  /** Replaces the field's value with `text`, typed with the engine's keyboard. */
  async fill(text: string) {
    await this.click()
    await this.until('fill', () => this.run('prepareFill'))
    await this.until('fill', () => this.backend.act(this.frame, script('element', this.steps), 'type', text))
  }
  async selectOption(value: string) {
    const done = await this.until<{ error?: string }>('select', () => this.run<{ error?: string }>('select', value))
    if (done.error) throw new Error(`selectOption ${this}: ${done.error}`)
  }
  async textContent() {
    return (await this.one()).text
  }
  async inputValue() {
    return (await this.one()).value
  }
  private async one() {
    const seen = await this.inspect()
    if (seen.length !== 1) throw new Error(`${this}: ${seen.length} matches, expected one`)
    return seen[0]
  }
  /** Runs `fn(element, arg)` in the page, on the one element this locator finds. */
  async evaluate<T, A = undefined>(fn: (el: Element, arg: A) => T, arg?: A): Promise<T> {
    await this.until('evaluate', async () => {
      const n = await this.count()
      return { count: n, ready: n === 1 }
    })
    return this.backend.onElement<T>(this.frame, script('element', this.steps), fn.toString(), arg ?? null)
  }
}

/** The page API a spec uses, as `page` in Playwright. */
export class XPage {
  constructor(
    private readonly backend: Backend,
    readonly engine: Engine,
    private readonly frame: string[] = [],
  ) {}
  private root() {
    return new Locator(this.backend, this.frame, [])
  }
  goto(url: string) {
    return this.backend.goto(url)
  }
  reload() {
    return this.backend.reload()
  }
  url() {
    return this.backend.url()
  }
  locator(css: string) {
    return this.root().locator(css)
  }
  getByRole(role: string, options: { name?: TextArg; exact?: boolean; level?: number } = {}) {
    return this.root().getByRole(role, options)
  }
  getByLabel(text: TextArg, options: { exact?: boolean } = {}) {
    return this.root().getByLabel(text, options)
  }
  getByText(text: TextArg, options: { exact?: boolean } = {}) {
    return this.root().getByText(text, options)
  }
  /** The document inside the iframe `css` finds (in this page, or this frame). */
  frameLocator(css: string) {
    return new XPage(this.backend, this.engine, [...this.frame, css])
  }
  /** Runs `fn(arg)` in the page (or frame) and returns its JSON value; `fn` may be async. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<Awaited<T>> {
    return this.backend.run(this.frame, `(${fn.toString()})(${JSON.stringify(arg ?? null)})`)
  }
  /**
   * Console errors and uncaught errors. Firefox: every one since the page opened (BiDi log events).
   * WebKit: WebKitWebDriver has no log or BiDi, so a hook is put into each document once `goto`
   * returns (the load event): errors before that are not seen there.
   */
  errors() {
    return this.backend.errors()
  }
  waitForTimeout(ms: number) {
    return sleep(ms)
  }
  close() {
    return this.backend.close()
  }
}

// ---------------------------------------------------------------- Firefox (puppeteer, BiDi)

class FirefoxPage implements Backend {
  private readonly logged: string[] = []
  constructor(
    private readonly page: PPage,
    private readonly context?: PContext,
  ) {
    page.on('console', (m) => m.type() === 'error' && this.logged.push(`console: ${m.text()}`))
    page.on('pageerror', (e) => this.logged.push(`pageerror: ${(e as Error).message ?? e}`))
  }
  private async frameAt(path: string[]): Promise<PFrame> {
    let frame = this.page.mainFrame()
    for (const css of path) {
      const handle = await frame.evaluateHandle(`(${INPAGE})('element', ${JSON.stringify([{ css }])})`)
      const el = (await handle.getProperty('el')).asElement()
      const inner = await el?.contentFrame()
      if (!inner) throw new Error(`no frame at ${path.join(' > ')}`)
      frame = inner
    }
    return frame
  }
  async run<T>(path: string[], source: string): Promise<T> {
    return (await this.frameAt(path)).evaluate(source) as Promise<T>
  }
  async act(path: string[], source: string, act: 'click' | 'type', text?: string) {
    const frame = await this.frameAt(path)
    const handle = await frame.evaluateHandle(source)
    const state = await handle.evaluate((o) => {
      const { count, ready } = o as { count: number; ready: boolean }
      return { count, ready }
    })
    if (!state.ready) return state
    const el = (await handle.getProperty('el')).asElement() as ElementHandle<Element>
    if (act === 'click') await el.click()
    else if (text) await this.page.keyboard.type(text)
    else await this.page.keyboard.press('Backspace')
    return state
  }
  async onElement<T>(path: string[], source: string, fn: string, arg: unknown): Promise<T> {
    const frame = await this.frameAt(path)
    const handle = await frame.evaluateHandle(source)
    const el = await handle.getProperty('el')
    // The function comes as source text: puppeteer applies a function to the handle, so one is made here.
    return el.evaluate(new Function(`return ${fn}`)() as (el: unknown, arg: unknown) => T, arg) as Promise<T>
  }
  async goto(url: string) {
    await this.page.goto(url, { waitUntil: 'load' })
  }
  async url() {
    // The document's own address: puppeteer's page.url() over BiDi lags a navigation a link started.
    return this.page.mainFrame().evaluate(() => location.href)
  }
  async reload() {
    await this.page.reload({ waitUntil: 'load' })
  }
  async errors() {
    return [...this.logged]
  }
  async close() {
    await (this.context ? this.context.close() : this.page.close())
  }
}

// ---------------------------------------------------------------- WebKit (selenium, classic WebDriver)

/** In-page hook for console errors and uncaught errors (WebKitWebDriver reports neither). */
const ERROR_HOOK = `(() => {
  if (window.__xbErrors) return
  const seen = (window.__xbErrors = [])
  const original = console.error
  console.error = function (...args) { seen.push('console: ' + args.map(String).join(' ')); return original.apply(this, args) }
  addEventListener('error', (e) => seen.push('pageerror: ' + e.message))
  addEventListener('unhandledrejection', (e) => seen.push('pageerror: ' + (e.reason && e.reason.message || e.reason)))
})()`

/**
 * One MiniBrowser session (a test's browser: a fresh profile) and its windows. The driver has one
 * current window and frame, so every command of every window of the session runs in turn.
 */
class WebKitSession {
  private queue: Promise<unknown> = Promise.resolve()
  private current: { window?: string; path: string[] } = { path: [] }
  constructor(readonly driver: WebDriver) {}
  /** Runs `fn` with the driver switched to `window` and into the frames `path`. */
  in<T>(window: string, path: string[], fn: (d: WebDriver) => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      const d = this.driver
      if (this.current.window !== window) {
        await d.switchTo().window(window)
        this.current = { window, path: [] }
      }
      if (this.current.path.join('\n') !== path.join('\n') || path.length) {
        await d.switchTo().defaultContent()
        this.current.path = []
        for (const css of path) {
          const found = (await d.executeScript(`return ${script('element', [{ css }])}`)) as { el: WebElement | null }
          if (!found.el) throw new Error(`no frame at ${path.join(' > ')}`)
          await d.switchTo().frame(found.el)
        }
        this.current.path = path
      }
      return fn(d)
    })
    this.queue = next.catch(() => undefined)
    return next
  }
  /** A new window of this session (the driver's current window after it). */
  newWindow(): Promise<string> {
    const next = this.queue.then(async () => {
      // A window, not a tab: a tab behind another is hidden (see launchFirefox).
      await this.driver.switchTo().newWindow('window')
      const handle = await this.driver.getWindowHandle()
      this.current = { window: handle, path: [] }
      return handle
    })
    this.queue = next.catch(() => undefined)
    return next
  }
}

class WebKitPage implements Backend {
  private readonly earlier: string[] = []
  constructor(
    private readonly session: WebKitSession,
    private readonly window: string,
    private readonly onClose: () => Promise<void>,
  ) {}
  private in<T>(path: string[], fn: (d: WebDriver) => Promise<T>) {
    return this.session.in(this.window, path, fn)
  }
  run<T>(path: string[], source: string): Promise<T> {
    return this.in(path, (d) => d.executeScript(`return ${source}`) as Promise<T>)
  }
  act(path: string[], source: string, act: 'click' | 'type', text?: string) {
    return this.in(path, async (d) => {
      const found = (await d.executeScript(`return ${source}`)) as { count: number; ready: boolean; el: WebElement | null }
      if (!found.ready || !found.el) return { count: found.count, ready: false }
      if (act === 'click') {
        // A pointer click at the element's centre, as a buyer's (WebDriver's element click refuses
        // an element inside a shadow root, whose host is what the hit test finds).
        await d.executeScript('arguments[0].scrollIntoView({ block: "center", inline: "center" })', found.el)
        await d.actions().move({ origin: found.el }).press().release().perform()
      } else
        await d
          .actions()
          .sendKeys(text || Key.BACK_SPACE)
          .perform()
      return { count: found.count, ready: true }
    })
  }
  onElement<T>(path: string[], source: string, fn: string, arg: unknown): Promise<T> {
    return this.in(path, async (d) => {
      const found = (await d.executeScript(`return ${source}`)) as { el: WebElement | null }
      return d.executeScript(`return (${fn})(arguments[0], arguments[1])`, found.el, arg) as Promise<T>
    })
  }
  private async harvest(d: WebDriver) {
    const seen = (await d.executeScript('return window.__xbErrors || []').catch(() => [])) as string[]
    this.earlier.push(...seen)
  }
  goto(url: string) {
    return this.in([], async (d) => {
      await this.harvest(d)
      await d.get(url)
      await d.executeScript(ERROR_HOOK).catch(() => undefined)
    })
  }
  reload() {
    return this.in([], async (d) => {
      await this.harvest(d)
      await d.navigate().refresh()
      await d.executeScript(ERROR_HOOK).catch(() => undefined)
    })
  }
  url() {
    return this.in([], (d) => d.getCurrentUrl())
  }
  errors() {
    return this.in([], async (d) => [...this.earlier, ...((await d.executeScript('return window.__xbErrors || []').catch(() => [])) as string[])])
  }
  close() {
    return this.onClose()
  }
}

// ---------------------------------------------------------------- browsers and contexts

/** A test's own browser state (Playwright's BrowserContext): fresh storage, one or more tabs. */
export interface XContext {
  newPage(): Promise<XPage>
  close(): Promise<void>
}

export interface XBrowser {
  engine: Engine
  version: string
  newContext(): Promise<XContext>
  close(): Promise<void>
}

async function launchFirefox(): Promise<XBrowser> {
  const browser: PBrowser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: ENGINES.firefox.binary,
    headless: true,
    protocol: 'webDriverBiDi',
    defaultViewport: { width: 1280, height: 900 },
  })
  const version = (await browser.version()).replace('firefox/', 'Firefox ')
  return {
    engine: 'firefox',
    version,
    async newContext() {
      const context = await browser.createBrowserContext()
      return {
        async newPage() {
          // Each page in a window of its own, as Playwright's: a second tab would hide the first
          // (visibilityState 'hidden'), and the widget rightly pauses a hidden page.
          const pages = (await context.pages()).length
          return new XPage(new FirefoxPage(await context.newPage(pages ? { type: 'window' } : {})), 'firefox')
        },
        close: () => context.close(),
      }
    },
    close: () => browser.close(),
  }
}

async function launchWebKit(): Promise<XBrowser> {
  const port = await freePort()
  const server: ChildProcess = spawn(ENGINES.webkit.binary, [`--port=${port}`], { stdio: 'ignore' })
  const stopped = new Promise((r) => server.once('exit', r))
  // The driver listens within a few hundred ms.
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/status`).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    if (i > 100) throw new Error('WebKitWebDriver did not start')
    await sleep(50)
  }
  const session = async () =>
    new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { args: ['--automation'] } })
      .build()
  const startSession = async () => {
    for (let attempt = 1; ; attempt++) {
      const starting = session()
      const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 30_000).unref())
      const won = await Promise.race([starting, late])
      if (won !== 'late') return won
      // The late session, should it start after all, is closed: no MiniBrowser is left behind.
      starting.then((d) => d.quit()).catch(() => undefined)
      if (attempt === 2) throw new Error('WebKitWebDriver did not start a session in 30 s, twice')
    }
  }
  // The version of the engine, from a first session.
  const probe = await session()
  const version = `WebKitGTK ${(await probe.getCapabilities()).get('browserVersion')}`
  await probe.quit()
  return {
    engine: 'webkit',
    version,
    async newContext() {
      // A session is a new MiniBrowser with an ephemeral profile: nothing is shared between tests.
      // Starting one has once hung for the whole test timeout on a loaded machine (a fresh-clone CI
      // run, 2026-11-25): a start that takes over 30 s is given up and tried once more.
      const driver = await startSession()
      await driver.manage().window().setRect({ width: 1280, height: 900 })
      const s = new WebKitSession(driver)
      let first = true
      let quit: Promise<void> | undefined
      const close = () => (quit ??= driver.quit().catch(() => undefined))
      return {
        async newPage() {
          let handle: string
          if (first) {
            first = false
            handle = await driver.getWindowHandle()
          } else {
            handle = await s.newWindow()
          }
          return new XPage(
            new WebKitPage(s, handle, async () => {
              await s.in(handle, [], (d) => d.close())
            }),
            'webkit',
          )
        },
        close,
      }
    },
    async close() {
      server.kill()
      await stopped
    },
  }
}

export function launch(engine: Engine): Promise<XBrowser> {
  return engine === 'firefox' ? launchFirefox() : launchWebKit()
}

// ---------------------------------------------------------------- expect

type Options = { timeout?: number }

async function poll(what: string, timeout: number | undefined, check: () => Promise<{ pass: boolean; got: unknown }>, where?: () => Promise<string>) {
  const end = Date.now() + (timeout ?? DEFAULT_TIMEOUT)
  let last: { pass: boolean; got: unknown } = { pass: false, got: undefined }
  for (;;) {
    last = await check().catch((e: Error) => ({ pass: false, got: `error: ${e.message}` }))
    if (last.pass) return
    if (Date.now() > end) throw new Error(`${what}: got ${JSON.stringify(last.got)}${where ? `; ${await where()}` : ''}`)
    await sleep(100)
  }
}

const textMatches = (got: string, want: TextArg, contains = false) =>
  want instanceof RegExp ? want.test(got) : contains ? got.includes(want.replace(/\s+/g, ' ').trim()) : got === want.replace(/\s+/g, ' ').trim()

/** Playwright's web-first assertions on a Locator (they wait), for the ones the specs use. */
function locatorExpect(locator: Locator, not = false) {
  const check = (name: string, options: Options | undefined, test: (seen: Seen[]) => boolean) =>
    poll(
      `expect(${locator})${not ? '.not' : ''}.${name}`,
      options?.timeout,
      async () => {
        const seen = await locator.inspect()
        return { pass: test(seen) !== not, got: seen.map((s) => ({ text: s.text.slice(0, 200), value: s.value, visible: s.visible })) }
      },
      () => locator.where(),
    )
  const single = (test: (s: Seen) => boolean) => (seen: Seen[]) => seen.length === 1 && test(seen[0])
  return {
    toBeVisible: (options?: Options) =>
      check(
        'toBeVisible',
        options,
        single((s) => s.visible),
      ),
    toBeHidden: (options?: Options) => check('toBeHidden', options, (seen) => seen.every((s) => !s.visible)),
    toBeEnabled: (options?: Options) =>
      check(
        'toBeEnabled',
        options,
        single((s) => s.enabled),
      ),
    toHaveText: (want: TextArg, options?: Options) =>
      check(
        'toHaveText',
        options,
        single((s) => textMatches(s.text, want)),
      ),
    toContainText: (want: TextArg, options?: Options) =>
      check(
        'toContainText',
        options,
        single((s) => textMatches(s.text, want, true)),
      ),
    toHaveValue: (want: TextArg, options?: Options) =>
      check(
        'toHaveValue',
        options,
        single((s) => textMatches(s.value ?? '', want)),
      ),
    toHaveCount: (n: number, options?: Options) => check('toHaveCount', options, (seen) => seen.length === n),
    toHaveAttribute: (name: string, want: TextArg, options?: Options) =>
      check(
        'toHaveAttribute',
        options,
        single((s) => name in s.attrs && (want instanceof RegExp ? want.test(s.attrs[name]) : s.attrs[name] === want)),
      ),
  }
}

function pageExpect(page: XPage, not = false) {
  return {
    toHaveURL: (want: TextArg, options?: Options) =>
      poll(`expect(page)${not ? '.not' : ''}.toHaveURL(${want})`, options?.timeout, async () => {
        const url = await page.url()
        return { pass: (want instanceof RegExp ? want.test(url) : url === want) !== not, got: url }
      }),
  }
}

type LocatorMatchers = ReturnType<typeof locatorExpect>
type PageMatchers = ReturnType<typeof pageExpect>

/** `expect` as in a Playwright spec: web-first matchers for a Locator or a page, Playwright's own for values. */
export function expect(actual: Locator, message?: string): LocatorMatchers & { not: LocatorMatchers }
export function expect(actual: XPage, message?: string): PageMatchers & { not: PageMatchers }
export function expect<T>(actual: T, message?: string): ReturnType<typeof pwExpect<T>>
export function expect(actual: unknown, message?: string): unknown {
  if (actual instanceof Locator) return { ...locatorExpect(actual), not: locatorExpect(actual, true) }
  if (actual instanceof XPage) return { ...pageExpect(actual), not: pageExpect(actual, true) }
  return pwExpect(actual, message)
}
expect.poll = pwExpect.poll
