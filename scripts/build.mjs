#!/usr/bin/env node
// `npm run build [-- --partners FILE] [--out DIR]`: the app (hosted page, iframe page, runtime),
// then the script-tag loader pointed at the runtime's hashed file, the npm package, the partner
// registry inlined into the pages, `_headers` for the hosted pages, and sri.json.
//
// --partners FILE  the operator's partner registry (scripts/registry.mjs checks it; a bad file stops
//                  the build naming the entry and the field). Without it the pages know no partner,
//                  so every hosted or iframe link is refused (script tag and npm work as before).
//                  A registry of sandbox entries makes a sandbox build (sandbox wallet, badge, http on
//                  loopback); production and sandbox entries are never mixed in one build.
// --out DIR        where to write (default dist; the npm package is built only into dist).
// --reuse DIR      sandbox registries only: take the app, runtime and loader as DIR's sandbox build
//                  made them (only the files its manifests name) and redo only what the registry
//                  decides: the pages, /p/, _headers, sri.json. The end-to-end setup builds each
//                  further stack's sandbox so: the bundles do not depend on the registry, the pages do.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { parseArgs } from 'node:util'
import { minifySync } from 'rolldown/utils'
import { createServer as createViteServer } from 'vite'
import { rewriteDeclarations } from './dtsExtensions.mjs'
import { firstPaint } from '../src/embed/firstPaint.mjs'
import { RegistryError, headersFile, isSandboxRegistry, parseRegistry, registryWarnings } from './registry.mjs'

const { values: args } = parseArgs({ options: { partners: { type: 'string' }, out: { type: 'string', default: 'dist' }, reuse: { type: 'string' } } })
const out = args.out.replace(/\/+$/, '')

let partners = []
if (args.partners) {
  try {
    partners = parseRegistry(JSON.parse(readFileSync(args.partners, 'utf8')), args.partners)
  } catch (error) {
    console.error(`✖ build stopped: ${error instanceof RegistryError || error instanceof SyntaxError ? error.message : error}`)
    process.exit(1)
  }
  for (const warning of registryWarnings(partners, args.partners)) console.warn(`⚠ ${warning}`)
}
const sandbox = isSandboxRegistry(partners)

const vite = (extra, env = {}) => {
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', ...extra], {
    stdio: 'inherit',
    env: { ...process.env, WIDGET_SANDBOX: sandbox ? '1' : '0', ...env },
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

/** A path's real form, through its nearest existing folder (it may not exist yet). */
const realPath = (path) => {
  const rest = []
  let at = resolve(path)
  while (!existsSync(at)) {
    rest.unshift(basename(at))
    at = dirname(at)
  }
  return join(realpathSync(at), ...rest)
}
// The npm package is built into dist/ only, however the folder is named (./dist, a link to it).
const isDist = realPath(out) === realPath('dist')

const pages = ['index.html', 'embed.html']
// The pages' first-screen script (src/embed/firstPaint.mjs): a --reuse takes only first screens drawn
// for this very script (.vite/firstScreens.json says which).
const PAINT = createHash('sha256')
  .update(readFileSync(new URL('../src/embed/firstPaint.mjs', import.meta.url)))
  .digest('hex')
// The pages as Vite wrote them, before the registry and the preload script go in: what --reuse
// starts from. Kept in sandbox builds only (a production build is never reused), so a folder that
// has them is a sandbox build.
const TEMPLATES = `${out}/.vite/pages`
const stop = (why) => {
  console.error(`✖ build stopped: ${why}`)
  process.exit(1)
}
/** The files under `dir` (relative to it), but not in the folders `skip` names. */
const filesUnder = (dir, skip = [], base = dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (!statSync(path).isDirectory()) return [relative(base, path)]
    return skip.includes(name) ? [] : filesUnder(path, skip, base)
  })

/**
 * Copies into `out` the bundles of the sandbox build in `from`: only the files a build writes (the
 * chunks its two manifests name, the loader, the public files, its own records), each a plain file
 * inside the folder (no `..`, no absolute path, no link to a file or through a folder), by content.
 */
function copyBundles(from) {
  // Only the end-to-end stacks' sandbox builds are made so: a production build is always built in
  // full, so no folder (whatever it holds) can bring its bundles into one.
  if (!sandbox) stop(`--reuse makes sandbox builds only; a production registry is always built in full`)
  if (isDist) stop('--reuse does not write dist/ (the npm package is built there, in full)')
  if (!existsSync(join(from, '.vite', 'pages'))) stop(`--reuse ${from} is not a sandbox build (it has no .vite/pages)`)
  const [a, b] = [realPath(from), realPath(out)]
  if (a === b || a.startsWith(b + sep) || b.startsWith(a + sep)) stop(`--reuse ${from} and --out ${out} are the same folder, or one holds the other`)
  const named = (file) =>
    Object.values(JSON.parse(readFileSync(join(from, '.vite', file), 'utf8'))).flatMap((c) => [c.file, ...(c.css ?? []), ...(c.assets ?? [])])
  const files = new Set([
    ...named('manifest.json'),
    ...named('runtime.json'),
    // The WalletConnect client (vite.walletconnect.config.ts): a build made before it has none.
    ...(existsSync(join(from, '.vite', 'walletconnect.json')) ? [...named('walletconnect.json'), '.vite/walletconnect.json'] : []),
    'stablecoin-widget.js',
    ...(existsSync('public') ? filesUnder('public') : []),
    ...['manifest.json', 'runtime.json', 'firstScreens.json', ...pages.map((p) => `pages/${p}`)].map((f) => `.vite/${f}`),
  ])
  const inside = realpathSync(from) + sep
  for (const file of files) {
    if (typeof file !== 'string' || isAbsolute(file) || file.split(/[\\/]/).includes('..')) stop(`--reuse ${from}: ${file} is not a path inside the folder`)
    const src = join(from, file)
    if (!existsSync(src) || !lstatSync(src).isFile() || !realpathSync(src).startsWith(inside))
      stop(`--reuse ${from}: ${file} is not a plain file of the folder (missing, a link or a folder)`)
  }
  const paint = (() => {
    try {
      return JSON.parse(readFileSync(join(from, '.vite', 'firstScreens.json'), 'utf8')).paint
    } catch {}
  })()
  if (paint !== PAINT) stop(`--reuse ${from}: its first screens were drawn for another src/embed/firstPaint.mjs (or none); build it again`)
  rmSync(out, { recursive: true, force: true })
  for (const file of files) {
    mkdirSync(dirname(join(out, file)), { recursive: true })
    writeFileSync(join(out, file), readFileSync(join(from, file)))
  }
}

if (args.reuse) copyBundles(args.reuse.replace(/\/+$/, ''))
else {
  // The WalletConnect client first, on its own (vite.walletconnect.config.ts): the app build names its file.
  const wcOut = `${out}.walletconnect`
  vite(['--config', 'vite.walletconnect.config.ts', '--outDir', wcOut])
  const wcFile = JSON.parse(readFileSync(`${wcOut}/.vite/walletconnect.json`, 'utf8'))['src/wallet/walletConnect/client.ts'].file
  vite(['--outDir', out, '--emptyOutDir'], { WIDGET_WALLETCONNECT: basename(wcFile) })
  for (const file of [wcFile, '.vite/walletconnect.json']) {
    mkdirSync(dirname(join(out, file)), { recursive: true })
    writeFileSync(join(out, file), readFileSync(join(wcOut, file)))
  }
  rmSync(wcOut, { recursive: true, force: true })
  if (sandbox) {
    mkdirSync(TEMPLATES, { recursive: true })
    for (const page of pages) writeFileSync(join(TEMPLATES, page), readFileSync(join(out, page)))
  }
}
const manifest = JSON.parse(readFileSync(`${out}/.vite/manifest.json`, 'utf8'))
if (!args.reuse) {
  // The script-tag runtime, a build of its own (vite.loader.config.ts), then the loader stub that names it.
  vite(['--config', 'vite.loader.config.ts', '--outDir', out], { WIDGET_PART: 'runtime' })
}
const runtime = JSON.parse(readFileSync(`${out}/.vite/runtime.json`, 'utf8'))['src/embed/runtime.ts']?.file
if (!runtime) throw new Error('no runtime in .vite/runtime.json')
/** A file's Subresource Integrity hash: sha384 in sri.json; the loader holds the runtime's sha256 (fewer bytes). */
const sriOf = (file, algorithm = 'sha384') =>
  `${algorithm}-${createHash(algorithm)
    .update(readFileSync(join(out, file)))
    .digest('base64')}`
// The loader checks the runtime against its hash (src/embed/loader.ts).
if (!args.reuse)
  vite(['--config', 'vite.loader.config.ts', '--outDir', out], {
    WIDGET_RUNTIME: `./${runtime}`,
    WIDGET_RUNTIME_SRI: sriOf(runtime, 'sha256'),
    WIDGET_MANIFEST: `${out}/.vite/manifest.json`,
  })
if (isDist && !args.reuse) {
  // The npm package (ESM + types) in dist/lib.
  vite(['--config', 'vite.lib.config.ts'])
  const types = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.lib.json'], { stdio: 'inherit' })
  if (types.status !== 0) process.exit(types.status ?? 1)
  // The partner-backend kit (stablecoin-widget/server, ESM + types) in dist/server.
  vite(['--config', 'vite.server.config.ts'])
  // Both packages' types, with the file extensions Node's ESM resolution (node16, nodenext) needs.
  for (const types of ['dist/lib/types', 'dist/server/types']) rewriteDeclarations(types)
}

// The registry goes into the pages themselves: reading a partner's entry costs no round trip.
// JSON in a <script type="application/json"> is data, not script: the strict CSP allows it.
const inline = (entries) => `<script type="application/json" id="stablecoin-widget-partners">${JSON.stringify(entries).replace(/</g, '\\u003c')}</script>`
const templates = Object.fromEntries(pages.map((p) => [p, readFileSync(args.reuse ? join(TEMPLATES, p) : join(out, p), 'utf8')]))
const withRegistry = (html, entries) => html.replace('</head>', () => `    ${inline(entries)}\n  </head>`) // a function: no $-patterns from registry values
// Everything the first screen needs, asked for at once (issue 19): a few bytes of inline script read
// the link's `flow` and add a modulepreload for each chunk of that flow the page does not load
// already, so the flow's chunk does not wait for the page's modules to run. The strict CSP allows
// exactly this script through its sha256 in script-src (scripts/registry.mjs), not 'unsafe-inline'.
const FLOWS = {
  deposit: 'src/flows/deposit/DepositFlow.tsx',
  card: 'src/flows/card/CardFlow.tsx',
  onboarding: 'src/flows/onboarding/OnboardingFlow.tsx',
  bankDeposit: 'src/flows/bankDeposit/BankDepositFlow.tsx',
  payout: 'src/flows/payout/PayoutFlow.tsx',
  cardPayout: 'src/flows/payout/CardPayoutFlow.tsx',
}
const closureOf = (key, seen = new Set()) => {
  if (manifest[key] && !seen.has(key)) {
    seen.add(key)
    for (const dep of manifest[key].imports ?? []) closureOf(dep, seen)
  }
  return seen
}
const onPage = new Set(pages.flatMap((page) => [...closureOf(page)]))
// A sandbox build's hosted page announces its sandbox wallet on the deposit's first screen (the
// iframe page has none, and a production build has no sandbox wallet at all).
const firstScreen = (page) =>
  page === 'index.html'
    ? {
        ...FLOWS,
        deposit: [FLOWS.deposit, 'src/wallet/sandboxWallet.ts'],
        payout: [FLOWS.payout, 'src/wallet/sandboxWallet.ts'],
        cardPayout: [FLOWS.cardPayout, 'src/wallet/sandboxWallet.ts'],
      }
    : FLOWS
const catalogs = Object.fromEntries(
  Object.entries(manifest)
    .filter(([key, chunk]) => chunk.isDynamicEntry && /^src\/i18n\/(?!en)[\w-]+\.ts$/.test(key))
    .map(([key, chunk]) => [key.slice('src/i18n/'.length, -'.ts'.length), `/${chunk.file}`]),
)
const preloadScripts = Object.fromEntries(
  pages.map((page) => {
    const preloads = Object.fromEntries(
      Object.entries(firstScreen(page)).map(([flow, keys]) => [
        flow,
        [...new Set([keys].flat().flatMap((key) => [...closureOf(key)]))].filter((key) => !onPage.has(key)).map((key) => `/${manifest[key].file}`),
      ]),
    )
    // The words too: the catalog of the link's locale (else the browser's), chosen as src/i18n/i18n.ts's
    // catalogFor does (the tag itself, else its language; English is in the page already).
    const lookup = 'Object.hasOwn(c,L)?L:["en",...Object.keys(c)].find(x=>x.split("-")[0]==L.split("-")[0].toLowerCase())'
    return [
      page,
      `{const p=new URLSearchParams(location.search),f=p.get("flow"),m=${JSON.stringify(preloads)},c=${JSON.stringify(catalogs)},L=p.get("locale")||navigator.language||"en",k=${lookup};for(const h of[...(Object.hasOwn(m,f)?m[f]:[]),...(Object.hasOwn(c,k)?[c[k]]:[])]){const l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.append(l)}}`,
    ]
  }),
)
// The first screen itself, drawn from the page (issue 19): each flow's first screen as the app's own
// components render it for a plain link (src/embed/firstScreens.tsx, through Vite's SSR, once per
// build; a --reuse takes the first build's), the stylesheet it needs, and src/embed/firstPaint.mjs,
// which shows the one the link names where the app would draw exactly that (else nothing, as before).
const FIRST_SCREENS = `${out}/.vite/firstScreens.json`
if (!args.reuse) {
  const server = await createViteServer({ server: { middlewareMode: true, ws: false }, appType: 'custom', logLevel: 'error' })
  try {
    const { firstScreens, firstPaintData, walletList } = await server.ssrLoadModule('/src/embed/firstScreens.tsx')
    // Comments out, and whitespace folded outside quoted strings (the odd parts of the split).
    const css = (await server.ssrLoadModule('/src/styles.css?inline')).default.replace(/\/\*[\s\S]*?\*\//g, '')
    const folded = css
      .split(/("[^"\n]*"|'[^'\n]*')/)
      .map((part, i) => (i % 2 ? part : part.replace(/\s+/g, ' ')))
      .join('')
      .trim()
    const drawn = {
      paint: PAINT,
      css: folded,
      data: firstPaintData({ sandbox }),
      screens: { 'index.html': firstScreens({ sandbox, closable: false }), 'embed.html': firstScreens({ sandbox, closable: true }) },
      wallets: walletList(),
    }
    writeFileSync(FIRST_SCREENS, JSON.stringify(drawn))
  } finally {
    await server.close()
  }
}
const drawn = JSON.parse(readFileSync(FIRST_SCREENS, 'utf8'))
const paintData = JSON.stringify({ ...drawn.data, catalogs: Object.keys(catalogs) }).replace(/</g, '\\u003c')
const paintScript = minifySync('firstPaint.js', `(${firstPaint})(${paintData})`).code.trim()
const sha256 = (text) => `sha256-${createHash('sha256').update(text).digest('base64')}`
const preloadHashes = [...new Set([...Object.values(preloadScripts), paintScript])].map(sha256)
const styleHashes = [sha256(drawn.css)]
// The head keeps Vite's module script and preloads, and gets the stylesheet and (hosted page) the
// flow's preloads; the drawn screens and the script that shows one follow <div id="app">. (Moving
// Vite's modules and preloads after the screens drew the first screen 30–100 ms sooner and let the
// app take over 25–220 ms later, measured in one bench run: the app's own screen is worth more.)
// In the frame page, the flow's preloads come right after the script that draws: adding a
// modulepreload costs the main thread each time, which a frame shares with the partner's page.
// Measured (4x CPU, 20 runs each, interleaved): the deposit's 13 preloads took 10–86 ms (median 34)
// before its screen could be drawn; after it, the drawn screen came 34 ms sooner (median), and the
// app took over 36 ms later.
// A flow's drawn screen only where some partner offers it (its `flows`, else the build's default).
const offered = new Set(partners.flatMap((e) => e.flows ?? drawn.data.flows))
for (const page of pages) {
  const preload = `<script>${preloadScripts[page]}</script>`
  const [inHead, afterPaint] = page === 'embed.html' ? [[], [preload]] : [[preload], []]
  const head = [...inHead, `<style>${drawn.css}</style>`]
  templates[page] = templates[page].replace('</head>', () => `    ${head.join('\n    ')}\n  </head>`)
  const screens = [
    ...Object.entries(drawn.screens[page])
      .filter(([flow]) => offered.has(flow))
      .map(([flow, html]) => `<template id="sw-first-${flow}">${html}</template>`),
    `<template id="sw-wallets">${drawn.wallets}</template>`,
  ]
  const body = [...screens, `<script>${paintScript}</script>`, ...afterPaint]
  templates[page] = templates[page].replace('<div id="app"></div>', () => `<div id="app"></div>\n    ${body.join('\n    ')}`)
}
for (const page of pages) writeFileSync(join(out, page), withRegistry(templates[page], partners))
// One folder per partner, holding only its own entry, with its own frame-ancestors: /p/<id>/.
rmSync(join(out, 'p'), { recursive: true, force: true })
for (const entry of partners) {
  mkdirSync(join(out, 'p', entry.id), { recursive: true })
  for (const page of pages) writeFileSync(join(out, 'p', entry.id, page), withRegistry(templates[page], [entry]))
}
// The loader and every chunk are fetched from partners' pages: with SRI (crossorigin) and as module
// scripts, both CORS requests. Public, credential-free files: any origin may read them.
const CORS = ['/stablecoin-widget.js', '/assets/*'].map((path) => `${path}\n  Access-Control-Allow-Origin: *\n`).join('\n')
writeFileSync(join(out, '_headers'), `${headersFile(partners, preloadHashes, styleHashes)}\n${CORS}`)

// Every page, script and stylesheet served (the npm package and the build's records are not).
const files = filesUnder(out, ['lib', 'server', '.vite']).filter((f) => /\.(js|css|html)$/.test(f))
const sri = Object.fromEntries(files.sort().map((f) => [f, sriOf(f)]))
writeFileSync(`${out}/sri.json`, `${JSON.stringify(sri, null, 2)}\n`)
console.log(
  `built ${sandbox ? 'SANDBOX' : 'production'} → ${out}: loader stablecoin-widget.js → ${runtime}; ` +
    `${partners.length} partner(s)${partners.length ? ` (${partners.map((p) => p.id).join(', ')})` : ''}; ${files.length} files in sri.json`,
)
