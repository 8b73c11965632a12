import { readFileSync } from 'node:fs'
import preact from '@preact/preset-vite'
import { type Plugin, defineConfig } from 'vite'

const SHARED = new RegExp(
  [
    String.raw`/node_modules/(preact|@preact/signals|@preact/signals-core)/`,
    String.raw`/src/(App|services|api/(client|lazySchemas)|config/(?!returnLink\.|live\.)|embed/widgetMount|errors/(ApiError|WidgetError)|rateLimit/lazyLimiter|storage/)`,
    String.raw`/src/(i18n/(i18n|en)\.ts|components/(Notice|Screen)|polling/pollLater)`,
  ].join('|'),
)

// What every flow's first screen needs and the page before a flow does not (the machine's kernel,
// the first screen's frame, the clock): one chunk that every flow fetches with its own, not two.
const FLOW = /\/src\/(kernel\/(types|lazyPart|firstScreen|follow|useFlowMachine|defineFlow)|components\/FirstScreen)\./

const ZOD = /\/node_modules\/zod\/|\/src\/api\/schemas-common\./

// What the flows that take an amount need with their first screen (the field, its problems' words,
// decimal arithmetic): the virtual account and the flow chooser do without it.
const AMOUNT = /\/src\/(components\/AmountField|errors\/amountWords|i18n\/shared\/en-amount|lib\/decimal|lib\/limits|i18n\/limits)\./

// Vite's helper around each dynamic import(), in the lighter form this bundle needs (src/embed/preloadHelper.mjs
// says what it leaves out: stylesheets imported from scripts among them, which the build refuses).
// Served under Vite's own id for it: a Vite that named it otherwise would stop the build here.
const PRELOAD_HELPER = '\0vite/preload-helper.js'
let servedHelper = false
const slimPreload: Plugin = {
  name: 'slim-preload-helper',
  enforce: 'pre',
  buildStart() {
    servedHelper = false
  },
  load(id) {
    if (id !== PRELOAD_HELPER) return
    servedHelper = true
    return readFileSync(new URL('./src/embed/preloadHelper.mjs', import.meta.url), 'utf8')
  },
  generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
    for (const chunk of chunks) {
      if (chunk.viteMetadata?.importedCss.size) this.error(`${chunk.fileName} imports a stylesheet: src/embed/preloadHelper.mjs preloads scripts only`)
    }
    if (!servedHelper && chunks.some((c) => c.dynamicImports.length > 0))
      this.error(`Vite's preload helper was not ${JSON.stringify(PRELOAD_HELPER)}: src/embed/preloadHelper.mjs was not used`)
  },
}

// The app build: the hosted page, the iframe page, and the widget the script-tag loader's runtime mounts.
// The loader and its runtime are built by vite.loader.config.ts (scripts/build.mjs runs them after this).
export default defineConfig({
  plugins: [preact(), slimPreload],
  // scripts/build.mjs sets WIDGET_SANDBOX=1 for a sandbox registry: only then is sandbox code in the bundle.
  // WIDGET_WALLETCONNECT: the WalletConnect client's file, built on its own (vite.walletconnect.config.ts).
  define: {
    __SANDBOX_BUILD__: JSON.stringify(process.env.WIDGET_SANDBOX === '1'),
    __WALLETCONNECT_CLIENT__: JSON.stringify(process.env.WIDGET_WALLETCONNECT ?? ''),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    // Every browser the widget supports has modulepreload; the polyfill would cost every flow 0.5 KB.
    modulePreload: { polyfill: false },
    rollupOptions: {
      // mount: the widget the script-tag loader fetches beside its runtime (vite.loader.config.ts) on a first mount().
      input: { index: 'index.html', embed: 'embed.html', mount: 'src/embed/mount.tsx' },
      preserveEntrySignatures: 'exports-only',
      output: {
        // What every flow needs goes in one chunk: one file compresses better than seven small ones,
        // and a flow's first screen then waits for two requests, not eight.
        // zod and the contract's building blocks: one file too, fetched after the first screen (api/lazySchemas.ts).
        codeSplitting: {
          groups: [
            { name: 'widget', test: (id: string) => SHARED.test(id) },
            { name: 'flow', test: (id: string) => FLOW.test(id) },
            { name: 'zod', test: (id: string) => ZOD.test(id) },
            { name: 'amount', test: (id: string) => AMOUNT.test(id) },
          ],
        },
      },
    },
  },
  // A chunk finds the chunks it preloads next to itself, not at the page's root: the runtime runs on
  // partners' pages, whose origin is not the widget's.
  experimental: { renderBuiltUrl: (_file, { hostType }) => (hostType === 'js' ? { relative: true } : undefined) },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1' },
})
