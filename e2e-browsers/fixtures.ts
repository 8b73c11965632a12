// The fixtures of the cross-browser suite, named as Playwright's (`page`, `context`, `browser`), so
// a spec here reads like its twin in e2e/. The engine is the project's (playwright.config.ts);
// the stack is this worker's, started by e2e/globalSetup.ts like the Chromium suite's.
import { _baseTest } from '@playwright/test'
import { type Sandbox, resetStack, sandboxOf } from '../e2e/helpers'
import { type StackConfig, stackConfig } from '../e2e/stack'
import { type Engine, type XBrowser, type XContext, type XPage, launch } from './driver'

export { expect } from './driver'

export const test = _baseTest.extend<
  { context: XContext; page: XPage; sandbox: Sandbox; freshSandbox: void },
  { engine: Engine; browser: XBrowser; stack: StackConfig }
>({
  engine: ['firefox', { scope: 'worker', option: true }],
  // One browser per worker: Firefox takes seconds to start; WebKit's sessions (one per test) are quick.
  browser: [
    async ({ engine }, use, workerInfo) => {
      const started = Date.now()
      const browser = await launch(engine)
      console.log(`[${workerInfo.project.name}] ${browser.version} up in ${Date.now() - started} ms`)
      await use(browser)
      await browser.close()
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  stack: [
    async ({}, use) => {
      await use(stackConfig())
    },
    { scope: 'worker' },
  ],
  // As in e2e/helpers.ts: every test starts from a reset sandbox and mining chains.
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
  // Each test has a browser state of its own (storage, tabs), as a Playwright context.
  context: async ({ browser }, use) => {
    const context = await browser.newContext()
    await use(context)
    await context.close()
  },
  page: async ({ context }, use) => {
    await use(await context.newPage())
  },
})
