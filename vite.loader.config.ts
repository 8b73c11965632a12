import { existsSync, readFileSync } from 'node:fs'
import { defineConfig } from 'vite'

// Two small builds, after the app build (scripts/build.mjs runs them in this order):
// - WIDGET_PART=runtime: the script-tag runtime (mount, iframe, the element, declared widgets), one
//   ES module of its own with no chunk shared with the pages, so iframe() never fetches the widget;
// - otherwise the loader: one classic script (IIFE), no imports, a stable name, under 1 KB gzip: a
//   stub that queues calls until the runtime arrives. It names the runtime (__RUNTIME__, from
//   WIDGET_RUNTIME) and the widget (__WIDGET__: the app build's `mount` entry and everything it imports
//   statically, from the manifest at WIDGET_MANIFEST), and fetches them all at once, no waterfall.
type Chunk = { file: string; imports?: string[] }

/** The entry's file first, then its static imports, as paths relative to the loader (the build's root, no ./). */
function widgetFiles(): string[] {
  const path = process.env.WIDGET_MANIFEST ?? 'dist/.vite/manifest.json'
  const manifest: Record<string, Chunk> = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {}
  if (!manifest['src/embed/mount.tsx']) return ['assets/mount.js']
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    for (const dep of manifest[key]?.imports ?? []) visit(dep)
  }
  visit('src/embed/mount.tsx')
  return [...seen].map((key) => manifest[key].file)
}

const required = (name: string) => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set`)
  return value
}

const runtime = process.env.WIDGET_PART === 'runtime'
// The loader's own file name: it starts only from a <script src> naming it (src/embed/loader.ts).
const LOADER = 'stablecoin-widget.js'

export default defineConfig({
  define: runtime
    ? {}
    : {
        __RUNTIME__: JSON.stringify((process.env.WIDGET_RUNTIME ?? 'assets/runtime.js').replace(/^\.\//, '')),
        __WIDGET__: JSON.stringify(widgetFiles()),
        __LOADER__: JSON.stringify(LOADER),
        // scripts/build.mjs passes the runtime's hash with its name; a loader never goes without it.
        __RUNTIME_SRI__: JSON.stringify(process.env.WIDGET_RUNTIME ? required('WIDGET_RUNTIME_SRI') : ''),
      },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    copyPublicDir: false,
    ...(runtime
      ? {
          // Its own manifest: the app build's .vite/manifest.json stays as it is.
          manifest: '.vite/runtime.json',
          lib: { entry: 'src/embed/runtime.ts', formats: ['es'], fileName: () => 'assets/runtime-[hash].js' },
        }
      : {
          lib: { entry: 'src/embed/loader.ts', formats: ['iife'], name: 'StablecoinWidgetLoader', fileName: () => LOADER },
        }),
  },
})
