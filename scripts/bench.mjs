#!/usr/bin/env node
// `npm run bench`: one table, measured in one run on this machine in Chromium. Builds what it
// measures (the production build from test/fixtures/partners.json into dist/ for the sizes, and a
// sandbox build from the stack's own registry into dist-bench/ to run against), then:
//  - sizes (gzip, brotli) of the loader, of what each flow loads before it is interactive, of each lazy chunk;
//  - navigation → first interactive screen, median of N runs, per flow, hosted and iframe,
//    plain and with 4x CPU throttling plus a slow network (CDP);
//  - widget-path requests of one complete run of each flow, against the contract's minimum;
//  - JS heap after 50 mount/unmount cycles of the script-tag widget against after 1.
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { chromium } from '@playwright/test'
import { createServer } from 'vite'
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { startStack } from '../test/sandbox/stack.mjs'
import { serveStatic } from '../test/sandbox/static.mjs'

function build(...args) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', ...args], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
build('--partners', 'test/fixtures/partners.json')

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const PORTS = { sourcePort: 29545, destPort: 29546, apiPort: 29787 }
const WIDGET = 'http://127.0.0.1:24173'
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' })
const { measure, readManifest, gzipSize, brotliSize } = await vite.ssrLoadModule('/test/size/bundleSizes.ts')
await vite.close()
const sizes = measure()

const stack = await startStack({ ...PORTS, quiet: true, widgetBase: WIDGET, allowedOrigins: [WIDGET] })
mkdirSync('.sandbox-state', { recursive: true })
writeFileSync('.sandbox-state/bench-partners.json', JSON.stringify(stack.registry))
build('--partners', '.sandbox-state/bench-partners.json', '--out', 'dist-bench')
const preview = await serveStatic({ dir: 'dist-bench', port: 24173 })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})

const flows = {
  deposit: { first: 'Connect your wallet', extra: {} },
  card: { first: 'How much do you want to pay?', extra: {} },
  onboarding: { first: 'Where should your stablecoins go?', extra: {} },
}

async function timeToInteractive(flow, mode, throttled) {
  const context = await browser.newContext()
  const page = await context.newPage()
  if (throttled) {
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await cdp.send('Network.enable')
    // "Slow 4G"-like: 400 ms RTT, 400 kbit/s down.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 20_000 })
  }
  const url = demoUrl(stack.config, `${WIDGET}/`, flow)
  const start = Date.now()
  if (mode === 'hosted') {
    const seen = []
    page.on('request', (r) => seen.push(new URL(r.url()).pathname))
    await page.goto(url)
    await page.getByRole('heading', { name: flows[flow].first }).waitFor()
    // The partner's entry is inlined in the page: no request for it before the first screen.
    firstScreenRequests[flow] = seen
  } else {
    await page.goto(`${stack.config.apiBase}/examples/iframe.html?flow=${flow}`)
    await page.frameLocator('#widget iframe').getByRole('heading', { name: flows[flow].first }).waitFor()
  }
  const ms = Date.now() - start
  await context.close()
  return ms
}

const firstScreenRequests = {}
const timing = []
for (const flow of Object.keys(flows)) {
  for (const mode of ['hosted', 'iframe']) {
    for (const throttled of [false, true]) {
      const runs = []
      for (let i = 0; i < RUNS; i++) runs.push(await timeToInteractive(flow, mode, throttled))
      timing.push({ flow, mode, throttled, median: median(runs) })
    }
  }
}

// Widget-path requests for one complete run of each flow, against the contract's minimum.
async function depositRequests() {
  await fetch(`${stack.config.apiBase}/__sandbox/reset`, { method: 'POST' })
  const page = await browser.newPage()
  const t0 = Date.now()
  await page.goto(demoUrl(stack.config, `${WIDGET}/`, 'deposit'))
  await page.getByRole('button', { name: 'Sandbox wallet' }).click()
  await page.getByLabel('Amount').fill('1')
  await page.getByRole('button', { name: 'See the price' }).click()
  await page.getByRole('button', { name: 'Confirm and send' }).click()
  await page.getByRole('heading', { name: 'Deposit delivered' }).waitFor({ timeout: 60_000 })
  await page.close()
  return widgetPathSince(t0)
}

/** Widget-path requests since t0: the count, and how many went to each endpoint. */
async function widgetPathSince(t0) {
  const log = await (await fetch(`${stack.config.apiBase}/__sandbox/log`)).json()
  const paths = log.filter((e) => e.t >= t0 && e.method === 'POST' && /^\/(deposit|card|fiat)\//.test(e.path)).map((e) => e.path)
  const each = {}
  for (const path of paths) each[path] = (each[path] ?? 0) + 1
  return { count: paths.length, each: Object.entries(each).map(([path, n]) => `${path} ${n}`).join(', ') }
}
const depositCount = await depositRequests()

async function cardRequests() {
  await fetch(`${stack.config.apiBase}/__sandbox/reset`, { method: 'POST' })
  const page = await browser.newPage()
  const t0 = Date.now()
  await page.goto(demoUrl(stack.config, `${WIDGET}/`, 'card'))
  await page.getByLabel('Total to pay').fill('50')
  await page.getByRole('button', { name: 'See what you get' }).click()
  await page.getByLabel('Wallet address that receives the crypto').fill(stack.config.accounts[2])
  await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await page.getByRole('heading', { name: 'Purchase complete' }).waitFor({ timeout: 60_000 })
  await page.close()
  return widgetPathSince(t0)
}

async function fiatRequests() {
  await fetch(`${stack.config.apiBase}/__sandbox/reset`, { method: 'POST' })
  const page = await browser.newPage()
  const t0 = Date.now()
  await page.goto(demoUrl(stack.config, `${WIDGET}/`, 'onboarding'))
  await page.getByLabel('Wallet address').fill(stack.config.accounts[3])
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.getByRole('link', { name: 'Verify with our identity partner' }).click()
  await page.getByRole('button', { name: 'Verify my identity' }).click()
  await page.getByLabel('Full name').fill('Ada Lovelace')
  await page.getByLabel('Email').fill('ada@example.com')
  await page.getByLabel('Mobile phone').fill('+49 151 23456789')
  await page.getByLabel('Nationality').selectOption('DE')
  await page.getByLabel('Country of residence').selectOption('DE')
  await page.getByRole('button', { name: 'Open my account' }).click()
  await page.getByRole('heading', { name: 'Send a bank transfer' }).waitFor()
  const { virtuals } = await (await fetch(`${stack.config.apiBase}/__sandbox/fiat`)).json()
  await fetch(`${stack.config.apiBase}/__sandbox/control`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ fundAccount: { virtualAccountId: virtuals.at(-1)[0], amount: '10' } }),
  })
  await page.getByRole('heading', { name: 'Your money arrived' }).waitFor({ timeout: 60_000 })
  await page.close()
  return widgetPathSince(t0)
}
const cardCount = await cardRequests()
const fiatCount = await fiatRequests()

async function heap() {
  const page = await browser.newPage()
  await page.goto(`${stack.config.apiBase}/examples/script.html?flow=card`)
  await page.locator('#widget').getByLabel('Total to pay').waitFor()
  const cycle = (n) =>
    page.evaluate(async (count) => {
      const config = JSON.parse(document.querySelector('meta[name="widget-config"]').content)
      for (let i = 0; i < count; i++) {
        const el = document.createElement('div')
        document.body.appendChild(el)
        const w = window.StablecoinWidget.mount(el, config)
        await new Promise((r) => setTimeout(r, 30))
        w.unmount()
        el.remove()
      }
    }, n)
  const cdp = await page.context().newCDPSession(page)
  const used = async () => {
    await cdp.send('HeapProfiler.collectGarbage')
    return (await cdp.send('Runtime.getHeapUsage')).usedSize
  }
  await cycle(1)
  const after1 = await used()
  await cycle(49)
  const after50 = await used()
  await page.close()
  return { after1, after50 }
}
const memory = await heap()

await browser.close()
await stack.stop()
await preview.close()

const manifest = readManifest()
// One table: what was measured, and its figures side by side.
const rows = [['measure', 'figure', 'figure', 'against']]
const section = (title) => rows.push([`— ${title}`, '', '', ''])
section('built size (bytes of dist/)')
rows.push(['', 'gzip', 'brotli', 'budget (gzip)'])
rows.push(['script-tag loader', kb(sizes.loader), kb(sizes.brotli.loader), '2 KB'])
rows.push(['hosted page, first load (no flow yet)', kb(sizes.initial), kb(sizes.brotli.initial), ''])
const budgets = { deposit: '80 KB with wallet code', card: '35 KB', onboarding: '35 KB' }
for (const [flow, size] of Object.entries(sizes.flows)) rows.push([`${flow}: before its first screen is interactive`, kb(size), kb(sizes.brotli.flows[flow]), flow === 'deposit' ? '' : budgets[flow]])
rows.push(['deposit: with its wallet code (viem)', kb(sizes.flows.deposit + sizes.wallet), kb(sizes.brotli.flows.deposit + sizes.brotli.wallet), budgets.deposit])
for (const [key, chunk] of Object.entries(manifest)) {
  if (!chunk.isDynamicEntry) continue
  const name = key.includes('chainActions') ? `lazy: ${chunk.file} (viem: wallet actions)` : `lazy: ${chunk.file}`
  rows.push([name, kb(gzipSize('dist', chunk.file)), kb(brotliSize('dist', chunk.file)), ''])
}
section(`navigation → first interactive screen, median of ${RUNS} runs`)
rows.push(['', 'plain', '4x CPU + slow net', ''])
for (const flow of Object.keys(flows)) {
  for (const mode of ['hosted', 'iframe']) {
    const plain = timing.find((t) => t.flow === flow && t.mode === mode && !t.throttled).median
    const slow = timing.find((t) => t.flow === flow && t.mode === mode && t.throttled).median
    rows.push([`${flow}, ${mode} page`, `${plain} ms`, `${slow} ms`, ''])
  }
}
section('hosted page: requests before the first screen (the registry entry is inlined: none for it)')
for (const [flow, seen] of Object.entries(firstScreenRequests)) {
  rows.push([flow, String(seen.length), '', seen.map((p) => p.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '.js')).join(', ')])
}
section('widget-path requests, one complete run')
// A status that answers pending (the chain or the bank transfer was not there yet) is one more.
rows.push(['deposit', String(depositCount.count), '', `minimum 2: one quote, one status that answers done (${depositCount.each})`])
rows.push(['card', String(cardCount.count), '', `minimum 1: the quote; kyc-token, purchase, status go to the partner's backend (${cardCount.each})`])
rows.push(['bank', String(fiatCount.count), '', `minimum 3: onboard, account, one status that answers funded (${fiatCount.each})`])
section('JS heap, script-tag widget mounted and unmounted (after GC)')
rows.push(['after 1 cycle / after 50 cycles', kb(memory.after1), kb(memory.after50), `growth ${kb(memory.after50 - memory.after1)}`])
const widths = [0, 1, 2].map((i) => Math.max(...rows.filter((r) => !r[0].startsWith('—')).map((r) => r[i].length)))
console.log('')
for (const row of rows) {
  if (row[0].startsWith('—')) console.log(`\n${row[0]}`)
  else console.log(`  ${row[0].padEnd(widths[0])}  ${row[1].padStart(widths[1])}  ${row[2].padStart(widths[2])}  ${row[3]}`)
}
process.exit(0)
