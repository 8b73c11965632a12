import { defineConfig } from '@playwright/test'
import type { Engine } from './driver'

// The cross-browser suite (README "Tests"): the specs of this folder in Firefox ESR and in WebKitGTK,
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
  projects: [
    { name: 'firefox', use: { engine: 'firefox' }, workers: 1 },
    { name: 'webkit', use: { engine: 'webkit' }, workers: 1 },
  ],
})
