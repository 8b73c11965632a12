#!/usr/bin/env node
// The cross-browser suite (e2e-browsers/): the specs there in Firefox ESR (puppeteer-core over
// WebDriver BiDi) and WebKitGTK (selenium-webdriver and WebKitWebDriver, under xvfb-run), one
// worker per engine, both at once, against stacks of their own (e2e/globalSetup.ts).
//
//   node scripts/test-browsers.mjs            every test in both engines
//   node scripts/test-browsers.mjs --quick    what `npm test` runs: per engine, the tests tagged
//                                             @npm:firefox or @npm:webkit (docs/testing.md)
//   ... -- <playwright args>                  passed on (a file, -g "title", --project webkit)
//
// An engine whose binary is missing is skipped with a line saying so. The stacks sit 100 ports
// (and folders) above the Chromium suite's (E2E_PORTS_OFFSET + 100), so the two may run at once.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const args = process.argv.slice(2).filter((a) => a !== '--' && a !== '--quick')
const quick = process.argv.includes('--quick')
const firefox = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
const webkit = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
const onPath = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0

const projects = []
if (existsSync(firefox)) projects.push('firefox')
else console.log(`cross-browser suite: Firefox skipped, ${firefox} not found (apt-get install -y firefox-esr)`)
if (!existsSync(webkit)) console.log(`cross-browser suite: WebKit skipped, ${webkit} not found (apt-get install -y webkit2gtk-driver xvfb)`)
else if (!onPath('xvfb-run')) console.log('cross-browser suite: WebKit skipped, xvfb-run not found (apt-get install -y xvfb): MiniBrowser needs a display')
else projects.push('webkit')
if (projects.length === 0) process.exit(0)

const env = {
  ...process.env,
  E2E_PORTS_OFFSET: String(Number(process.env.E2E_PORTS_OFFSET ?? 0) + 100),
  ...(quick ? { E2E_BROWSERS_QUICK: '1' } : {}),
}
const playwright = [
  process.execPath,
  'node_modules/@playwright/test/cli.js',
  'test',
  '-c',
  'e2e-browsers/playwright.config.ts',
  ...projects.map((p) => `--project=${p}`),
  ...args,
]
const [command, ...rest] = projects.includes('webkit') ? ['xvfb-run', '-a', ...playwright] : playwright
const result = spawnSync(command, rest, { stdio: 'inherit', env })
process.exit(result.status ?? 1)
