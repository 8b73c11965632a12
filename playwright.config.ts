import { defineConfig } from '@playwright/test'

export const PAGE_ORIGIN = 'http://127.0.0.1:4173'

export default defineConfig({
  testDir: 'e2e',
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
  webServer: {
    // The built bundle, as partners get it: tests run against the minified output.
    command: 'node node_modules/vite/bin/vite.js preview --port 4173 --strictPort --host 127.0.0.1',
    url: PAGE_ORIGIN,
    reuseExistingServer: false,
    timeout: 30_000,
  },
})
