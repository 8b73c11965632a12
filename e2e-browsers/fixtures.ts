// The fixtures of the cross-browser suite, named as Playwright's (`page`, `context`, `browser`), so
// a spec here reads like its twin in e2e/. The engine is the project's (playwright.config.ts);
// the stack is this worker's, started by e2e/globalSetup.ts like the Chromium suite's.
import { _baseTest } from '@playwright/test'
import { type Sandbox, stackFixtures } from '../e2e/helpers'
import type { StackConfig } from '../e2e/stack'
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
  // The stack, the sandbox, and a reset before every test, as in e2e/helpers.ts.
  ...stackFixtures,
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
