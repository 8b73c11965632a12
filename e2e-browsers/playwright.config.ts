import { defineConfig } from '@playwright/test'
import type { Engine } from './driver'

// The cross-browser suite (docs/testing.md): the specs of this folder in Firefox ESR and in WebKitGTK,
// each engine in a worker of its own (project workers: 1), both engines at once (workers: 2). Each
// worker has its own stack (e2e/stack.ts `layout`), started by the Chromium suite's globalSetup.
process.env.E2E_WORKERS = '2'

export default defineConfig<{ engine: Engine }>({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: `../test-results-browsers${process.env.E2E_PORTS_OFFSET ? `-${process.env.E2E_PORTS_OFFSET}` : ''}`,
  timeout: 90_000,
  workers: 2,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  globalSetup: '../e2e/globalSetup.ts',
  // `npm test` (E2E_BROWSERS_QUICK) runs, per engine, the tests tagged for it (docs/testing.md).
  projects: (['firefox', 'webkit'] as const).map((engine) => ({
    name: engine,
    use: { engine },
    workers: 1,
    ...(process.env.E2E_BROWSERS_QUICK ? { grep: new RegExp(`@npm:${engine}\\b`) } : {}),
  })),
})
