import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { type Fixtures, type Locator, type Page, test as base, expect } from '@playwright/test'
import { scopedStorage } from '../src/storage/safeStorage'
import { type LogEntry, type StackConfig, TIMINGS, rpc, sandbox as callSandbox, stackConfig } from './stack'

export { expect }

/** A stored key (`stablecoin-widget:v1:flow:account`) as the widget names it for a partner of this stack (storage/safeStorage.ts). */
export function keptKey(stack: StackConfig, key: string, partner = stack.partner): string {
  const scoped = scopedStorage({} as Storage, { partner, apiBase: stack.apiBase }) as unknown as { at(key: string): string }
  return scoped.at(key)
}

/**
 * Fixtures every spec uses (`import { expect, test } from './helpers'`):
 * - `stack` (worker): this worker's stack (e2e/stack.ts), read once;
 * - `freshSandbox` (auto, before every test): POST /__sandbox/reset (log, faults, rate limit,
 *   every sandbox setting) and both chains mining again with an empty mempool, so no test sees
 *   what another left, whatever ran before it on this worker;
 * - `sandbox`: the controls and the log of this worker's sandbox (see `Sandbox`).
 */
export const stackFixtures: Fixtures<{ sandbox: Sandbox; freshSandbox: void }, { stack: StackConfig }> = {
  stack: [
    async ({}, use) => {
      await use(stackConfig())
    },
    { scope: 'worker' },
  ],
  freshSandbox: [
    async ({ stack }, use) => {
      await resetStack(stack)
      await use()
    },
    { auto: true },
  ],
  sandbox: async ({ stack }, use) => {
    await use(sandboxOf(stack))
  },
}

export const test = base.extend<{ sandbox: Sandbox; freshSandbox: void }, { stack: StackConfig }>(stackFixtures).extend({
  // A failed test says where the page stood: what the buyer read, and the sandbox's last requests.
  page: async ({ page, stack }, use, testInfo) => {
    await use(page)
    if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) await attachPageState(page, stack, testInfo)
  },
})

/** What the buyer saw when the test failed (the page's text, its address) and the sandbox's last 20 requests, printed with the failure. */
async function attachPageState(
  page: Page,
  stack: StackConfig,
  testInfo: { title: string; attach(name: string, o: { body: string; contentType: string }): Promise<void> },
) {
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .catch((e: Error) => `(no text: ${e.message})`)
  // Headings, notices and statuses, in open shadow roots too (a custom element's widget).
  const said = await page
    .locator('h1, h2, [role=alert], [role=status], .notice')
    .allInnerTexts()
    .catch(() => [])
  const log = await callSandbox(stack, '/__sandbox/log').catch(() => [])
  const last = (log as LogEntry[]).slice(-20).map((e) => `${e.method} ${e.path} ${e.status}${e.fault ? ` (${e.fault})` : ''}`)
  const body = [
    `url: ${page.url()}`,
    '--- said ---',
    ...said.filter(Boolean),
    '--- sandbox: last requests ---',
    ...last,
    '--- page text ---',
    text.slice(0, 3_000),
  ].join('\n')
  await testInfo.attach('page at failure', { body, contentType: 'text/plain' })
  // Printed whole too: the terminal reporters cut a text attachment at 300 characters.
  console.log(`--- page at failure: ${testInfo.title} ---\n${body}\n--- end ---`)
}

/** The sandbox as a fresh test finds it: reset, and every chain mining each transaction again. */
export async function resetStack(stack: StackConfig) {
  await callSandbox(stack, '/__sandbox/reset', {})
  for (const chain of stack.chains) {
    await rpc(chain.rpcUrl, 'anvil_dropAllTransactions')
    await rpc(chain.rpcUrl, 'evm_setAutomine', [true])
  }
}

export type Fault = { kind: '429' | '500' | '502' | 'slow' | 'malformed' | 'garbage'; count?: number; path?: string; delayMs?: number; retryAfter?: number }

export type Sandbox = {
  /** POST /__sandbox/control (nextOutcome, processingMs, hostileQuote, fundAccount…). */
  control(body: Record<string, unknown>): Promise<unknown>
  /** Faults for the next matching requests (a fault without a path hits the next widget-path request). */
  faults(list: Fault[]): Promise<unknown>
  /** Every request the sandbox saw since this test began (the reset empties it). */
  log(): Promise<LogEntry[]>
  /** The POSTs to `path` since this test began. */
  posts(path: string): Promise<LogEntry[]>
  /** How many requests an injected fault answered since this test began. */
  faultsHit(): Promise<number>
  /** The newest virtual account of the bank stand-in (to fund it). */
  lastVirtualAccount(): Promise<string>
  /** Sends `amount` to the newest virtual account, as the bank would. */
  fundLastAccount(amount: string): Promise<void>
}

export function sandboxOf(stack: StackConfig): Sandbox {
  const log = async () => (await callSandbox(stack, '/__sandbox/log')) as LogEntry[]
  const lastVirtualAccount = async () => {
    const state = (await callSandbox(stack, '/__sandbox/fiat')) as { virtuals: Array<[string, unknown]> }
    return state.virtuals.at(-1)![0]
  }
  return {
    control: (body) => callSandbox(stack, '/__sandbox/control', body),
    faults: (list) => callSandbox(stack, '/__sandbox/control', { faults: list }),
    log,
    posts: async (path) => (await log()).filter((e) => e.method === 'POST' && e.path === path),
    faultsHit: async () => (await log()).filter((e) => e.fault).length,
    lastVirtualAccount,
    fundLastAccount: async (amount) => {
      await callSandbox(stack, '/__sandbox/control', { fundAccount: { virtualAccountId: await lastVirtualAccount(), amount } })
    },
  }
}

/** The widget-path requests (deposit, card, fiat) of a log, without preflights. */
export const widgetPath = (log: LogEntry[], origin?: string) =>
  log.filter((e) => e.method !== 'OPTIONS' && /^\/(deposit|card|fiat)\//.test(e.path) && (origin === undefined || e.origin === origin))

/** The most of `times` that fall within one window of `windowMs` (each window starting at one of them). */
export const busiestWindow = (times: readonly number[], windowMs: number): number =>
  times.reduce((most, t) => Math.max(most, times.filter((u) => u >= t && u < t + windowMs).length), 0)

/** The contract's limit: no rolling 10 s window holds more than 5 widget-path requests. Returns the busiest window. */
export function expectWithinRateLimit(log: LogEntry[], what = 'widget-path requests'): number {
  const times = log.map((e) => e.t)
  const worst = busiestWindow(times, 10_000)
  expect(worst, `${what}: the busiest 10 s window`).toBeLessThanOrEqual(5)
  return worst
}

/**
 * A "nothing happens" check: looks every 250 ms for `forMs` and fails at the first thing `seen`
 * returns (say, a request that must not go out), instead of sleeping and looking once. Size
 * `forMs` from the sandbox timers (`quietFor`), so the widget had several chances to misbehave.
 */
export async function expectNothing<T>(seen: () => Promise<T[]> | T[], forMs: number, what: string) {
  const until = Date.now() + forMs
  do {
    expect(await seen(), what).toEqual([])
    await new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, until - Date.now()))))
  } while (Date.now() < until)
  expect(await seen(), what).toEqual([])
}

/** A quiet span long enough for `times` runs of the sandbox build's timer `timer`. */
export const quietFor = (timer: keyof typeof TIMINGS, times = 3) => TIMINGS[timer] * times

/**
 * How long until the page's limiter surely has a slot again (5 widget-path requests per rolling
 * 10 s), judged from the sandbox log: 0 when fewer than 5 went out in the last 10 s.
 */
export function limiterFreeIn(log: LogEntry[], now = Date.now()): number {
  const recent = widgetPath(log)
    .map((e) => e.t)
    .filter((t) => t > now - 10_000)
    .sort((a, b) => a - b)
  return recent.length < 5 ? 0 : Math.max(0, recent[recent.length - 5] + 10_000 - now)
}

/**
 * A quiet span in which the widget would have sent something were it not paused or stopped: the
 * time the limiter may still hold requests back, then `times` runs of the timer `timer`.
 */
export async function quietSpan(sandbox: Sandbox, timer: keyof typeof TIMINGS, times = 3): Promise<number> {
  return limiterFreeIn(await sandbox.log()) + quietFor(timer, times)
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
// axe-core as @axe-core/playwright itself loads it (its own dependency, the same version).
const axePath = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js')
const axeVersion: string = JSON.parse(readFileSync(join(dirname(axePath), 'package.json'), 'utf8')).version
let axeScript: string | undefined

type Violation = { id: string; nodes: Array<{ target: unknown[] }> }

/** One axe.run in a page without frames, with this axe-core injected once per document. */
async function axeInPage(page: Page): Promise<Violation[]> {
  const ours = (version: string) => {
    const axe = (window as unknown as { axe?: { version?: unknown; run?: unknown } }).axe
    return typeof axe === 'object' && axe !== null && axe.version === version && typeof axe.run === 'function'
  }
  if (!(await page.evaluate(ours, axeVersion))) {
    axeScript ??= readFileSync(axePath, 'utf8')
    await page.evaluate(axeScript)
    expect(await page.evaluate(ours, axeVersion), 'axe-core is in the page').toBe(true)
  }
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => ({ target: n.target })) }))
  }, AXE_TAGS)
}

/**
 * axe with the WCAG 2.2 A/AA rules; no violations allowed.
 *
 * A page without frames runs `axe.run` in the page itself, as AxeBuilder's legacy mode does, with
 * axe-core injected once per document (a flow's screens follow one another in one document). On
 * each call AxeBuilder injects axe-core (0.5 MB) into every frame again, and by default then runs
 * `axe.finishRun` in a new blank page with axe-core injected there too: the same rules on the same
 * nodes, at a page's cost per check. Only the violations are listed in full (`resultTypes`).
 * A page with frames (cross-origin ones included), or one that gained a frame while it was checked,
 * is checked by AxeBuilder's default mode.
 */
export async function expectAxeClean(page: Page, screen: string) {
  let violations = page.frames().length === 1 ? await axeInPage(page) : undefined
  if (violations === undefined || page.frames().length !== 1) violations = (await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations
  const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(summary, `axe violations on ${screen}`).toEqual([])
}

/** Moves focus with Tab only (no clicks) until `target` has it. */
export async function tabTo(page: Page, target: Locator, maxTabs = 40) {
  for (let i = 0; i < maxTabs; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`could not reach ${target} with the keyboard`)
}

export async function heading(page: Page) {
  return page.getByRole('heading', { level: 1 })
}

/** Fakes the page being hidden / shown, the way a tab switch does. */
export async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') })
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h })
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))
  }, hidden)
}

/** What fillDetails needs of a page: Playwright's, or the cross-browser suite's (e2e-browsers/driver.ts). */
type Fields = { getByLabel(text: string): { fill(value: string): Promise<unknown>; selectOption(value: string): Promise<unknown> } }

/** The bank flow's details form, filled as a buyer would (overrides per field). */
export async function fillDetails(page: Fields, overrides: Partial<Record<string, string>> = {}) {
  const v = { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+49 151 2345 6789', nationality: 'DE', country: 'DE', ...overrides }
  await page.getByLabel('Full name').fill(v.name)
  await page.getByLabel('Email').fill(v.email)
  await page.getByLabel('Mobile phone').fill(v.phone)
  await page.getByLabel('Nationality').selectOption(v.nationality)
  await page.getByLabel('Country of residence').selectOption(v.country)
}

/** What the shared steps need of a locator, a page and `expect`: Playwright's, or the cross-browser suite's (e2e-browsers/driver.ts). */
type StepLocator = { fill(value: string): Promise<unknown>; click(): Promise<unknown> }
type StepPage<L extends StepLocator> = Fields & {
  getByRole(role: 'heading' | 'button' | 'link', options: { name?: string | RegExp; level?: number; exact?: boolean }): L
  getByLabel(text: string): L
}
type StepExpect<L> = (locator: L) => { toHaveText(text: string, options?: { timeout?: number }): Promise<unknown>; toBeVisible(): Promise<unknown> }

/** The steps several flows share, written once for both suites: each suite passes its own `expect`. */
export function sharedSteps<L extends StepLocator>(see: StepExpect<L>) {
  const h1 = (page: StepPage<L>) => page.getByRole('heading', { level: 1 })
  return {
    /** The card purchase priced at 50 and its receiving wallet typed: on to the card page (or its refusal). */
    async priceCardAndPay(page: StepPage<L>, wallet: string) {
      await page.getByLabel('Total to pay').fill('50')
      await page.getByRole('button', { name: 'See what you get' }).click()
      await see(h1(page)).toHaveText('Check your purchase')
      await page.getByLabel('Wallet address that receives the crypto').fill(wallet)
      await page.getByRole('button', { name: 'Continue to payment' }).click()
    },
    /** A bank flow's first screen for a buyer the service does not know: `wallet` typed, on to the identity provider's page. */
    async walletToProvider(page: StepPage<L>, wallet: string) {
      await see(h1(page)).toHaveText('Where should your stablecoins go?')
      await page.getByLabel('Wallet address').fill(wallet)
      await page.getByRole('button', { name: 'Continue' }).click()
      await see(h1(page)).toHaveText('Verify your identity')
      await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
      await see(page.getByRole('heading', { name: 'Sandbox identity provider' })).toBeVisible()
    },
    /** On the identity provider's page: verified, back on the details form, filled (overrides per field) and sent. */
    async detailsAfterProvider(page: StepPage<L>, overrides: Partial<Record<string, string>> = {}) {
      await page.getByRole('button', { name: 'Verify my identity' }).click()
      await see(h1(page)).toHaveText('Your details')
      await fillDetails(page, overrides)
      await page.getByRole('button', { name: 'Continue' }).click()
    },
    /** The beneficiary's form for a SEPA payout: Ada Lovelace's account, `iban` as typed (Create the payout is next). */
    async fillSepa(page: StepPage<L>, iban = 'DE89 3704 0044 0532 0130 00') {
      await see(h1(page)).toHaveText('Who receives the money?')
      await page.getByLabel('Account holder name').fill('Ada Lovelace')
      await page.getByLabel('First name').fill('Ada')
      await page.getByLabel('Last name').fill('Lovelace')
      await page.getByLabel('IBAN').fill(iban)
    },
  }
}

export const { priceCardAndPay, walletToProvider, detailsAfterProvider, fillSepa } = sharedSteps<Locator>(expect)

export type WidgetEvent = { name: string; payload: Record<string, unknown> }

/**
 * Every `stablecoin-widget` event of this tab, on the page now and on every page it loads next
 * (the identity provider's round trip loads the widget again); `completed()` is the complete
 * event's payload.
 */
export async function recordWidgetEvents(page: Page) {
  const events: WidgetEvent[] = []
  await page.exposeFunction('__widgetEvent', (e: WidgetEvent) => events.push(e))
  const listen = () =>
    window.addEventListener('stablecoin-widget', (e) => (window as unknown as { __widgetEvent(p: unknown): void }).__widgetEvent((e as CustomEvent).detail))
  await page.addInitScript(listen)
  await page.evaluate(listen).catch(() => {})
  return { events, names: () => events.map((e) => e.name), completed: () => events.find((e) => e.name === 'complete')?.payload }
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 })

/** Keyboard only: Tab to `target`, then Enter. */
export async function pressByKeyboard(page: Page, target: Locator) {
  await tabTo(page, target)
  await page.keyboard.press('Enter')
}

/** The screen the buyer lands on: its heading says `title` and has focus, and axe finds nothing on it. */
export async function expectLanded(page: Page, title: string, screen: string) {
  await expect(h1(page)).toHaveText(title)
  await expect(h1(page)).toBeFocused()
  await expectAxeClean(page, screen)
}
