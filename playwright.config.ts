import { defineConfig } from '@playwright/test'
// Each worker has a stack of its own (e2e/stack.ts): the specs build absolute URLs from it.
import { WORKERS } from './e2e/stack'

export default defineConfig({
  testDir: 'e2e',
  // Per port offset, so two suites on one machine do not share their artifacts.
  outputDir: `test-results${process.env.E2E_PORTS_OFFSET ? `-${process.env.E2E_PORTS_OFFSET}` : ''}`,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // Every test starts from a reset sandbox (e2e/helpers.ts), so tests of one file may run on either worker.
  fullyParallel: true,
  workers: WORKERS,
  // The first tier never retries. The extended tier (CI, 4 workers on 2 cores, about 240 tests)
  // runs a failed test once more: a test that passes only then is printed as "flaky", by name, in
  // the summary, and one that fails twice fails the run. A failure prints where its page stood
  // (e2e/helpers.ts), so a flake seen only in CI can be mended.
  retries: process.env.E2E_TIER === 'extended' ? 1 : 0,
  // Two tiers (docs/testing.md): `npm test` runs every test but those tagged @extended (the longer
  // variants of a main path it runs, the further cases of a family whose first case runs, the fault
  // storms, and cases whose rule a unit test holds); E2E_TIER=extended (`npm run test:extended`,
  // which CI runs after `npm test`) runs just those.
  ...(process.env.E2E_TIER === 'extended' ? { grep: /@extended/ } : { grepInvert: /@extended/ }),
  reporter: [['list']],
  globalSetup: './e2e/globalSetup.ts',
  use: {
    // Recording a trace costs every test CPU this 2-core machine does not have: a failure keeps its
    // screenshot; E2E_TRACE=retain-on-failure records traces when a failure needs one.
    trace: (process.env.E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
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
  // No webServer: e2e/globalSetup.ts starts a stack per worker, builds from its registry and serves both builds.
})
