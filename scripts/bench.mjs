#!/usr/bin/env node
// `npm run bench`: one table, measured in one run on this machine in Chromium. Builds what it
// measures (the production build from test/fixtures/partners.json into dist/ for the sizes, a
// sandbox build from the stack's own registry into dist-bench/ to run against, and a blank Preact
// page with the same Vite into dist-bench/blank/ as the reference), then prints:
//  - sizes (gzip, brotli) of the loader, of what each flow loads before it is interactive, of each
//    lazy chunk, and each flow's first load by chunk and by module;
//  - navigation → the flow's first enabled control, median of N runs, per flow, hosted, iframe() and declared iframe,
//    plain and throttled (4x CPU, 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up, through CDP),
//    against navigation → the blank page's first heading in the same conditions, and the ratio;
//  - widget-path requests of one complete run of each flow, against the contract's minimum;
//  - JS heap after 1 and after 50 mount/unmount cycles of the script-tag widget (performance entries
//    cleared, GC forced before each reading), and a heap-snapshot diff of what grew in between.
// Everything is served gzip-compressed, with the build's _headers, by one server on port 24173.
//
// BENCH_COMPARE=<git revision> measures that revision too, in the same run: its tree is checked out
// in a fresh folder under the system's temporary folder (a git worktree on this repo's node_modules),
// built by its own build script (production for the sizes, sandbox against a second stack of its
// own for the timings and the heap), served on port 34173, and timed interleaved with this tree,
// page for page. The table then has a
// "before" and an "after" figure side by side.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import preact from '@preact/preset-vite'
import { minifySync } from 'rolldown/utils'
import { build as viteBuild, createServer } from 'vite'
import { demoUrl } from '../test/sandbox/demoUrl.mjs'
import { startStack } from '../test/sandbox/stack.mjs'
import { parseHeadersFile } from '../test/sandbox/static.mjs'

function build(...args) {
  buildIn('.', ...args)
}
/** Runs a tree's own build script in it; a failed build throws (the stacks stop, the worktree goes). */
function buildIn(tree, ...args) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: tree, stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) throw new Error(`bench: the build in ${tree} failed (${r.status})`)
}
// BENCH_PORTS_OFFSET=<n> moves the ports and the output folders (dist-prod-bench-<n>/,
// dist-sandbox-bench-<n>/), so a trial run needs neither the shared ports nor dist/.
const OFFSET = Number(process.env.BENCH_PORTS_OFFSET ?? 0)
const DIST = OFFSET ? `dist-prod-bench-${OFFSET}` : 'dist'
const SANDBOX_DIST = OFFSET ? `dist-sandbox-bench-${OFFSET}` : 'dist-bench'
build('--partners', 'test/fixtures/partners.json', ...(OFFSET ? ['--out', DIST] : []))

const RUNS = Number(process.env.BENCH_RUNS ?? 9)
const PORTS = { sourcePort: 29545 + OFFSET, destPort: 29546 + OFFSET, apiPort: 29787 + OFFSET }
const WIDGET = `http://127.0.0.1:${24173 + OFFSET}`
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
// Chrome DevTools' "Slow 4G": 150 ms latency, 1.6 Mbit/s down, 750 kbit/s up; and a 4x slower CPU.
const THROTTLE = { cpu: 4, latency: 150, down: (1.6e6 / 8) | 0, up: (750e3 / 8) | 0 }

const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' })
const { measure, readManifest, gzipSize, brotliSize, closure, FLOW_ENTRIES } = await vite.ssrLoadModule('/test/size/bundleSizes.ts')
await vite.close()
const sizes = measure(DIST)
const manifest = readManifest(DIST)

// Each module's share of the production build: the app build once more (same config, production,
// into a scratch folder), each module's rendered code minified on its own and gzipped. A module's
// figure is what it costs alone; a chunk compresses a little better than the sum of its modules.
const moduleStats = {}
{
  const previous = process.env.WIDGET_SANDBOX
  process.env.WIDGET_SANDBOX = '0'
  // createServer above set NODE_ENV=development in this process: build as `npm run build` does.
  process.env.NODE_ENV = 'production'
  await viteBuild({
    mode: 'production',
    configFile: 'vite.config.ts',
    logLevel: 'error',
    build: { outDir: `.sandbox-state/bench-modules${OFFSET || ''}`, emptyOutDir: true },
    plugins: [
      {
        name: 'bench-module-sizes',
        generateBundle(_options, bundle) {
          for (const chunk of Object.values(bundle)) {
            if (chunk.type !== 'chunk') continue
            moduleStats[chunk.fileName] = Object.entries(chunk.modules)
              .filter(([, m]) => m.renderedLength > 0)
              .map(([id, m]) => {
                let code = m.code ?? ''
                try {
                  code = minifySync(`${id.replace(/\?.*$/, '')}.js`, code).code
                } catch {}
                return { id: id.replace(/^.*\/(node_modules|src)\//, '$1/').replace(/^\0/, ''), gzip: gzipSync(code, { level: 9 }).length }
              })
              .sort((a, b) => b.gzip - a.gzip)
          }
        },
      },
    ],
  })
  if (previous === undefined) delete process.env.WIDGET_SANDBOX
  else process.env.WIDGET_SANDBOX = previous
}

// The revision to compare with (BENCH_COMPARE), checked out as a worktree in a fresh folder of its
// own under the temporary folder, built by its own build script, with this checkout's node_modules.
// Its stack has ports of its own (39545/39546/39787, its widget on 34173, + BENCH_PORTS_OFFSET).
let COMPARE
if (process.env.BENCH_COMPARE) {
  const rev = spawnSync('git', ['rev-parse', '--verify', '--end-of-options', `${process.env.BENCH_COMPARE}^{commit}`], { encoding: 'utf8' })
  if (rev.status !== 0) throw new Error(`BENCH_COMPARE=${process.env.BENCH_COMPARE}: not a commit of this repository`)
  COMPARE = rev.stdout.trim().slice(0, 12)
}
const BEFORE_PORTS = { sourcePort: 39545 + OFFSET, destPort: 39546 + OFFSET, apiPort: 39787 + OFFSET }
const BEFORE_WIDGET = `http://127.0.0.1:${34173 + OFFSET}`
let BEFORE_TREE
let sizesBefore

const stack = await startStack({ ...PORTS, quiet: true, widgetBase: WIDGET, allowedOrigins: [WIDGET] })
// Whatever happens below, the stacks' chains and servers stop with the bench.
let stackBefore
let preview
let previewBefore
let browser
try {
  mkdirSync('.sandbox-state', { recursive: true })
  writeFileSync(`.sandbox-state/bench-partners${OFFSET || ''}.json`, JSON.stringify(stack.registry))
  build('--partners', `.sandbox-state/bench-partners${OFFSET || ''}.json`, '--out', SANDBOX_DIST)
  if (COMPARE) {
    BEFORE_TREE = join(mkdtempSync(join(tmpdir(), 'stablecoin-widget-bench-')), 'tree')
    const added = spawnSync('git', ['worktree', 'add', '--detach', BEFORE_TREE, COMPARE], { stdio: ['ignore', 'ignore', 'inherit'] })
    if (added.status !== 0) throw new Error(`bench: git worktree add ${COMPARE} failed`)
    symlinkSync(resolve('node_modules'), join(BEFORE_TREE, 'node_modules'))
    buildIn(BEFORE_TREE, '--partners', resolve('test/fixtures/partners.json'), '--out', join(BEFORE_TREE, 'dist-prod'))
    sizesBefore = measure(join(BEFORE_TREE, 'dist-prod'))
    stackBefore = await startStack({ ...BEFORE_PORTS, quiet: true, widgetBase: BEFORE_WIDGET, allowedOrigins: [BEFORE_WIDGET] })
    writeFileSync(join(BEFORE_TREE, 'bench-partners.json'), JSON.stringify(stackBefore.registry))
    buildIn(BEFORE_TREE, '--partners', join(BEFORE_TREE, 'bench-partners.json'), '--out', join(BEFORE_TREE, 'dist-sandbox'))
  }

  // The reference: a blank Preact page (one heading), built by the same Vite, served the same way.
  const BLANK_SRC = `.sandbox-state/bench-blank${OFFSET || ''}`
  rmSync(BLANK_SRC, { recursive: true, force: true })
  mkdirSync(BLANK_SRC, { recursive: true })
  writeFileSync(
    join(BLANK_SRC, 'index.html'),
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><title>Blank</title></head>\n<body><div id="app"></div><script type="module" src="./main.jsx"></script></body></html>\n',
  )
  writeFileSync(join(BLANK_SRC, 'main.jsx'), "import { render } from 'preact'\nrender(<h1>Blank page</h1>, document.getElementById('app'))\n")
  await viteBuild({
    root: BLANK_SRC,
    base: '/blank/',
    configFile: false,
    logLevel: 'error',
    plugins: [preact()],
    build: { outDir: join(process.cwd(), SANDBOX_DIST, 'blank'), emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  })

  /** dist-bench/ (with its _headers), gzip-compressed as a CDN would send it. */
  function serveGzip(dir, port) {
    const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' }
    const rules = existsSync(join(dir, '_headers')) ? parseHeadersFile(readFileSync(join(dir, '_headers'), 'utf8')) : []
    const matches = (rule, path) => (rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : rule.path === path)
    const server = createHttpServer((req, res) => {
      let path = decodeURIComponent(new URL(req.url ?? '/', 'http://bench.local').pathname)
      let file = normalize(join(dir, path))
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html')
      if (path.endsWith('/')) path += 'index.html'
      if (!file.startsWith(normalize(dir)) || !existsSync(file) || path.split('/').some((p) => p.startsWith('.') || p === '_headers')) {
        res.writeHead(404).end()
        return
      }
      const headers = Object.fromEntries(rules.filter((r) => matches(r, path)).flatMap((r) => r.headers))
      const body = readFileSync(file)
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))
      res.writeHead(200, {
        // Partners' pages fetch the loader and the chunks cross-origin (a CDN answers so for public files).
        ...(extname(file) === '.js' ? { 'Access-Control-Allow-Origin': '*' } : {}),
        'Content-Type': types[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        Vary: 'Accept-Encoding',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
        ...headers,
      })
      res.end(gzip ? gzipSync(body, { level: 9 }) : body)
    })
    return new Promise((resolve) =>
      server.listen(port, '127.0.0.1', () => resolve({ close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) })),
    )
  }
  preview = await serveGzip(SANDBOX_DIST, 24173 + OFFSET)
  if (COMPARE) previewBefore = await serveGzip(join(BEFORE_TREE, 'dist-sandbox'), 34173 + OFFSET)
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })

  // The first enabled control of each flow's first screen. The deposit's is the buyer's wallet: a
  // browser wallet (announced through EIP-6963 in every frame, as an extension does) named "Bench wallet".
  // The ways in that are timed: the hosted page; the example partner page calling
  // StablecoinWidget.iframe() with a signed link (after the loader); and the one declaring
  // <iframe data-stablecoin-widget src="…signed link…"> in its HTML (a compared revision too: the
  // moment is the frame's own, whether or not that revision's loader adopts the frame).
  const MODES = ['hosted', 'iframe', 'frame']
  const MODE_LABEL = { hosted: 'hosted page', iframe: 'iframe() page', frame: 'declared iframe page' }
  const flows = {
    deposit: { control: 'Bench wallet', heading: 'Connect your wallet' },
    card: { control: 'See what you get', heading: 'How much do you want to pay?' },
    onboarding: { control: 'Continue', heading: 'Where should your stablecoins go?' },
  }

  // Runs in every frame from its first script: the moment (epoch ms) the target is in the DOM, and
  // enabled when it is a control. Mutation observer, so no polling interval is in the figure; only in
  // the frame the target is in (the top page, or the widget's frame), so the partner page around a
  // frame does no work of the bench's. Also a browser wallet that announces itself, as an extension's
  // content script does in every frame.
  function watch({ kind, text, frame }) {
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: Object.freeze({
            info: {
              uuid: '00000000-0000-4000-8000-000000000019',
              name: 'Bench wallet',
              icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
              rdns: 'dev.bench.wallet',
            },
            provider: { request: () => Promise.reject(new Error('bench wallet: not for use')) },
          }),
        }),
      )
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
    if ((window === top) === frame) return
    // `own`: the app's own control, not one of the screen the page drew from its HTML (issue 19).
    const found = (own) => {
      for (const el of document.querySelectorAll(kind === 'heading' ? 'h1, h2' : 'button, input, select')) {
        if ((el.textContent ?? '').includes(text) && !el.disabled && !(own && el.closest('[data-first-screen], [hidden]'))) return true
      }
      return false
    }
    const observer = new MutationObserver(() => {
      const now = performance.timeOrigin + performance.now()
      if (window.__benchAt === undefined && found(false)) window.__benchAt = now
      if (window.__benchAppAt === undefined && found(true)) {
        window.__benchAppAt = now
        observer.disconnect()
        // Told through the console: the bench asks the page nothing while it loads. An evaluate in a
        // frame that has just committed has Playwright inject its script there first (330 KB, about
        // 40 ms of the main thread at 4x CPU), in the middle of the widget's first screen.
        console.debug(`bench-at ${JSON.stringify({ top: window === top, at: [window.__benchAt, now] })}`)
      }
    })
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true })
  }

  async function timeTo(url, target, { throttled, frame = false, onRequest } = {}) {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.addInitScript(watch, { ...target, frame })
    if (throttled) {
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE.cpu })
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: THROTTLE.latency,
        downloadThroughput: THROTTLE.down,
        uploadThroughput: THROTTLE.up,
      })
    }
    if (onRequest) page.on('request', onRequest)
    // The page's own moment, from the frame the target is in: the top page, or the widget's frame.
    const reported = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${url}: no "${target.text}"${frame ? ' in the frame' : ''} within 60 s`)), 60_000)
      page.on('console', (message) => {
        const text = message.text()
        if (!text.startsWith('bench-at ')) return
        const { top, at } = JSON.parse(text.slice('bench-at '.length))
        if (top === !frame) clearTimeout(timer), resolve(at)
      })
    })
    await page.goto(url, { waitUntil: 'commit' })
    const at = await reported
    const origin = await page.evaluate(() => performance.timeOrigin)
    await context.close()
    // The first enabled control (drawn by the page or the app's), and the app's own.
    return { first: at[0] - origin, app: at[1] - origin }
  }

  const firstScreenRequests = {}
  const timing = []
  const blank = {}
  // The trees measured: this one ("after"), and the compared revision ("before") with its own stack.
  const trees = [{ name: 'after', stack, widget: WIDGET }, ...(COMPARE ? [{ name: 'before', stack: stackBefore, widget: BEFORE_WIDGET }] : [])]
  // Interleaved: each round times the blank page and then every flow and mode of every tree, so a
  // change in the machine's load weighs on the reference and on each tree alike.
  for (const throttled of [false, true]) {
    const runs = { blank: [] }
    for (let i = 0; i < RUNS; i++) {
      runs.blank.push((await timeTo(`${WIDGET}/blank/`, { kind: 'heading', text: 'Blank page' }, { throttled })).first)
      for (const flow of Object.keys(flows)) {
        const target = { kind: 'control', text: flows[flow].control }
        for (const mode of MODES) {
          for (const tree of trees) {
            const key = `${tree.name} ${flow} ${mode}`
            runs[key] ??= []
            if (mode === 'hosted') {
              const seen = []
              runs[key].push(
                await timeTo(demoUrl(tree.stack.config, `${tree.widget}/`, flow), target, {
                  throttled,
                  onRequest: (r) => seen.push(new URL(r.url()).pathname),
                }),
              )
              if (tree.name === 'after') firstScreenRequests[flow] = seen
            } else {
              runs[key].push(await timeTo(`${tree.stack.config.apiBase}/examples/${mode}.html?flow=${flow}`, target, { throttled, frame: true }))
            }
          }
        }
      }
    }
    blank[throttled ? 'slow' : 'plain'] = median(runs.blank)
    for (const flow of Object.keys(flows)) {
      for (const mode of MODES) {
        for (const tree of trees) {
          const times = runs[`${tree.name} ${flow} ${mode}`]
          timing.push({ tree: tree.name, flow, mode, throttled, median: median(times.map((t) => t.first)), app: median(times.map((t) => t.app)) })
        }
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
    return {
      count: paths.length,
      each: Object.entries(each)
        .map(([path, n]) => `${path} ${n}`)
        .join(', '),
    }
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

  /** A heap snapshot, summed by constructor name: { name: { count, size } }. */
  async function snapshot(cdp) {
    const parts = []
    const onChunk = (e) => parts.push(e.chunk)
    cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
    const snap = JSON.parse(parts.join(''))
    const meta = snap.snapshot.meta
    const width = meta.node_fields.length
    const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => meta.node_fields.indexOf(f))
    const types = meta.node_types[typeAt]
    const byName = {}
    for (let i = 0; i < snap.nodes.length; i += width) {
      const type = types[snap.nodes[i + typeAt]]
      const name = ['object', 'closure', 'native'].includes(type)
        ? `${snap.strings[snap.nodes[i + nameAt]]}${type === 'native' ? ' (native)' : ''}`
        : `(${type})`
      const entry = (byName[name] ??= { count: 0, size: 0 })
      entry.count++
      entry.size += snap.nodes[i + sizeAt]
    }
    return byName
  }

  async function heap(stack) {
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
    // The browser's own records (one resource timing per request a mount makes, marks, measures) are
    // not the widget's: cleared before each reading, then garbage collected (twice: weak refs).
    const used = async () => {
      await page.evaluate(() => {
        performance.clearResourceTimings()
        performance.clearMarks()
        performance.clearMeasures()
      })
      await cdp.send('HeapProfiler.collectGarbage')
      await cdp.send('HeapProfiler.collectGarbage')
      return (await cdp.send('Runtime.getHeapUsage')).usedSize
    }
    await cycle(1)
    const after1 = await used()
    const before = await snapshot(cdp)
    await cycle(49)
    const after50 = await used()
    const after = await snapshot(cdp)
    // 50 more: a leak grows again by as much; compiled code and the browser's bounded records do not.
    await cycle(50)
    const after100 = await used()
    await page.close()
    const diff = Object.entries(after).map(([name, a]) => ({ name, count: a.count - (before[name]?.count ?? 0), size: a.size - (before[name]?.size ?? 0) }))
    const grew = diff
      .filter((d) => d.size > 0)
      .sort((a, b) => b.size - a.size)
      .slice(0, 12)
    const total = (snap) => Object.values(snap).reduce((t, e) => t + e.size, 0)
    const code = (after['(code)']?.size ?? 0) - (before['(code)']?.size ?? 0)
    // What the page's own objects (JS and DOM) grew by: everything but V8's compiled code.
    const withoutCode = total(after) - total(before) - code
    return { after1, after50, after100, grew, code, withoutCode, snapshot1: total(before) }
  }
  const memory = await heap(stack)
  const memoryBefore = COMPARE ? await heap(stackBefore) : undefined

  // One table: what was measured, and its figures side by side.
  const rows = [['measure', 'figure', 'figure', 'against']]
  const section = (title) => rows.push([`— ${title}`, '', '', ''])
  section('built size (bytes of dist/)')
  rows.push(['', 'gzip', 'brotli', 'budget (gzip)'])
  rows.push(['script-tag loader', kb(sizes.loader), kb(sizes.brotli.loader), '1 KB'])
  rows.push(['hosted page, first load (no flow yet)', kb(sizes.initial), kb(sizes.brotli.initial), ''])
  // The issue's goals (test/size/budget.test.ts holds the budgets the build meets today).
  const budgets = { deposit: '', card: '30 KB', onboarding: '30 KB', bankDeposit: '35 KB', payout: '' }
  for (const [flow, size] of Object.entries(sizes.flows))
    rows.push([`${flow}: before its first screen is interactive`, kb(size), kb(sizes.brotli.flows[flow]), budgets[flow] ?? ''])
  rows.push(['deposit: with its wallet code (viem)', kb(sizes.flows.deposit + sizes.wallet), kb(sizes.brotli.flows.deposit + sizes.brotli.wallet), '65 KB'])
  rows.push(['payout: with its wallet code (viem)', kb(sizes.flows.payout + sizes.payoutWallet), kb(sizes.brotli.flows.payout + sizes.brotli.payoutWallet), ''])
  if (sizesBefore) {
    section(`built size before (${COMPARE}, its own build of the same registry, with this checkout's node_modules), gzip: before → after`)
    const both = (label, before, after) => rows.push([label, kb(before), kb(after), `${after - before >= 0 ? '+' : ''}${after - before} bytes`])
    both('script-tag loader', sizesBefore.loader, sizes.loader)
    both('hosted page, first load (no flow yet)', sizesBefore.initial, sizes.initial)
    for (const flow of Object.keys(sizes.flows)) both(`${flow}: before its first screen is interactive`, sizesBefore.flows[flow], sizes.flows[flow])
    both('deposit: with its wallet code (viem)', sizesBefore.flows.deposit + sizesBefore.wallet, sizes.flows.deposit + sizes.wallet)
    both('payout: with its wallet code (viem)', sizesBefore.flows.payout + sizesBefore.payoutWallet, sizes.flows.payout + sizes.payoutWallet)
    section('lazy chunks (after)')
  }
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue
    const name = key.includes('chainActions') ? `lazy: ${chunk.file} (viem: wallet actions)` : `lazy: ${chunk.file}`
    rows.push([name, kb(gzipSize(DIST, chunk.file)), kb(brotliSize(DIST, chunk.file)), ''])
  }
  // Each flow's first load, chunk by chunk, and in each chunk the modules that weigh most.
  const FLOW_KEYS = FLOW_ENTRIES
  const TOP = Number(process.env.BENCH_TOP_MODULES ?? 12)
  for (const [flow, key] of Object.entries(FLOW_KEYS)) {
    section(`${flow}: first load by chunk and module (gzip; a module alone, minified; top ${TOP} per chunk)`)
    const keys = new Set([...closure(manifest, 'index.html'), ...closure(manifest, key)])
    for (const k of keys) {
      const file = manifest[k].file
      const mods =
        moduleStats[file.replace(/^assets\//, 'assets/')] ?? Object.entries(moduleStats).find(([f]) => f.split('-')[0] === file.split('-')[0])?.[1] ?? []
      rows.push([`${file}`, kb(gzipSize(DIST, file)), `${mods.length} modules`, ''])
      for (const m of mods.slice(0, TOP)) rows.push([`    ${m.id}`, kb(m.gzip), '', ''])
      const rest = mods.slice(TOP).reduce((t, m) => t + m.gzip, 0)
      if (mods.length > TOP) rows.push([`    ${mods.length - TOP} more`, kb(rest), '', ''])
    }
  }
  const timed = (tree, flow, mode, throttled, what = 'median') =>
    timing.find((t) => t.tree === tree && t.flow === flow && t.mode === mode && t.throttled === throttled)[what]
  const timeRow = (label, tree, flow, mode, what) => {
    const [plain, slow] = [false, true].map((throttled) => timed(tree, flow, mode, throttled, what))
    rows.push([label, `${Math.round(plain)} ms`, `${Math.round(slow)} ms`, `${(plain / blank.plain).toFixed(2)} / ${(slow / blank.slow).toFixed(2)}`])
  }
  section(
    `navigation → first enabled control (blank page: first heading), median of ${RUNS} runs${COMPARE ? `, before (${COMPARE}) and after interleaved` : ''}`,
  )
  rows.push(['', 'plain', `${THROTTLE.cpu}x CPU, ${THROTTLE.latency} ms, 1.6 Mbit/s`, '× blank page (plain / throttled)'])
  rows.push(['blank Preact page, first heading', `${Math.round(blank.plain)} ms`, `${Math.round(blank.slow)} ms`, '1.00 / 1.00'])
  for (const flow of Object.keys(flows)) {
    for (const mode of MODES) {
      for (const tree of trees) timeRow(`${COMPARE ? `${tree.name}: ` : ''}${flow}, ${MODE_LABEL[mode]}: "${flows[flow].control}"`, tree.name, flow, mode)
    }
  }
  // Where the page drew the first screen from its HTML, its control works at once (what is done on it
  // is held); the app takes over later, with what was done. That moment, in the same runs:
  section("the app's own control (the page's drawn first screen taken over), same runs")
  for (const flow of Object.keys(flows)) {
    for (const mode of MODES) {
      for (const tree of trees) timeRow(`${COMPARE ? `${tree.name}: ` : ''}${flow}, ${MODE_LABEL[mode]}: the app's own control`, tree.name, flow, mode, 'app')
    }
  }
  section("hosted page: requests until the app's own control (a drawn first screen needs only the page; the registry entry is inlined: none for it)")
  for (const [flow, seen] of Object.entries(firstScreenRequests)) {
    rows.push([flow, String(seen.length), '', seen.map((p) => p.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '.js')).join(', ')])
  }
  section('widget-path requests, one complete run')
  // A status that answers pending (the chain or the bank transfer was not there yet) is one more.
  rows.push(['deposit', String(depositCount.count), '', `minimum 2: one quote, one status that answers done (${depositCount.each})`])
  rows.push(['card', String(cardCount.count), '', `minimum 1: the quote; kyc-token, purchase, status go to the partner's backend (${cardCount.each})`])
  rows.push(['bank', String(fiatCount.count), '', `minimum 3: onboard, account, one status that answers funded (${fiatCount.each})`])
  section('JS heap, script-tag widget mounted and unmounted (performance entries cleared, after GC)')
  const growth = memory.after50 - memory.after1
  rows.push([
    'after 1 cycle / after 50 cycles',
    kb(memory.after1),
    kb(memory.after50),
    `growth ${kb(growth)} (${((growth / memory.after1) * 100).toFixed(1)}%; limit 2%)`,
  ])
  const more = memory.after100 - memory.after50
  rows.push([
    'after 50 cycles / after 100 cycles',
    kb(memory.after50),
    kb(memory.after100),
    `growth ${kb(more)} (${((more / memory.after50) * 100).toFixed(1)}%)`,
  ])
  rows.push([
    'snapshot diff 1 → 50: V8 compiled code / all else',
    kb(memory.code),
    kb(memory.withoutCode),
    `all else: ${((memory.withoutCode / memory.snapshot1) * 100).toFixed(1)}% of the heap after 1 (limit 2%)`,
  ])
  if (memoryBefore) {
    const g = memoryBefore.after50 - memoryBefore.after1
    rows.push([
      `before (${COMPARE}): after 1 cycle / after 50 cycles`,
      kb(memoryBefore.after1),
      kb(memoryBefore.after50),
      `growth ${kb(g)} (${((g / memoryBefore.after1) * 100).toFixed(1)}%)`,
    ])
    rows.push([
      `before (${COMPARE}): snapshot diff code / all else`,
      kb(memoryBefore.code),
      kb(memoryBefore.withoutCode),
      `all else: ${((memoryBefore.withoutCode / memoryBefore.snapshot1) * 100).toFixed(1)}% of the heap after 1`,
    ])
  }
  for (const d of memory.grew)
    rows.push([`  grew: ${d.name.slice(0, 60)}`, `${(d.size / 1024).toFixed(1)} KB`, `+${d.count}`, 'heap-snapshot diff, after 1 → after 50'])
  const widths = [0, 1, 2].map((i) => Math.max(...rows.filter((r) => !r[0].startsWith('—')).map((r) => r[i].length)))
  console.log('')
  for (const row of rows) {
    if (row[0].startsWith('—')) console.log(`\n${row[0]}`)
    else console.log(`  ${row[0].padEnd(widths[0])}  ${row[1].padStart(widths[1])}  ${row[2].padStart(widths[2])}  ${row[3]}`)
  }
} finally {
  await browser?.close()
  await stack.stop()
  await stackBefore?.stop()
  await preview?.close()
  await previewBefore?.close()
  // Only the worktree this run made, in the folder it made.
  if (BEFORE_TREE) {
    spawnSync('git', ['worktree', 'remove', '--force', BEFORE_TREE], { stdio: 'ignore' })
    rmSync(dirname(BEFORE_TREE), { recursive: true, force: true })
  }
}
process.exit(0)
