import { defineConfig } from '@playwright/test'

export const PAGE_ORIGIN = `http://127.0.0.1:${4173 + Number(process.env.E2E_PORTS_OFFSET ?? 0)}`

export default defineConfig({
  testDir: 'e2e',
  // Per port offset, so two suites on one machine do not share their artifacts.
  outputDir: `test-results${process.env.E2E_PORTS_OFFSET ? `-${process.env.E2E_PORTS_OFFSET}` : ''}`,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: './e2e/globalSetup.ts',
  use: {
    baseURL: PAGE_ORIGIN,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // No webServer: e2e/globalSetup.ts builds from the sandbox's registry and serves both builds.
})
