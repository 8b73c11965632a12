// The script tag: a stub under 1 KB gzip. It defines StablecoinWidget and <stablecoin-widget>,
// finds the declared widgets, and hands every call to the runtime once it arrives (fetched on first
// use, once; a failed fetch is retried on the next call), checked against the hash the build wrote
// here. Calls keep their order; a handle works at once (update, on, off, unmount are queued).
// mount() fetches the widget's own chunks at the same time as the runtime; iframe() and a declared
// <iframe> need only the runtime. (iframe() used to start its frame before the runtime arrived:
// those bytes now go to the runtime's integrity check, and the frame starts with the runtime.)
import type { WidgetHandle } from './handle'
import { VERSION } from '../config/protocol'
import { loadFailed } from '../errors/partnerErrors'
import type { Runtime, Widget } from './runtime'

// The hashed files of the runtime and of the widget, each with its static imports (from the app
// build's manifest, see vite.loader.config.ts): all fetched at once, no waterfall. And this file's
// own name, as the build writes it.
declare const __RUNTIME__: string
declare const __WIDGET__: string[]
declare const __LOADER__: string
// The runtime's Subresource Integrity hash (sha256; sri.json gives its sha384): see getRuntime.
declare const __RUNTIME_SRI__: string

// Every file comes from where this one came from: its own <script src>. Markup can hide
// `document.currentScript` (<img name="currentScript" src="…">, a form, an embed, an iframe's
// window, a collection), but a name on the document only ever gives one of those, never an HTML
// script element; and HTMLScriptElement is the global object's own property, which no named element
// shadows (e2e/loader.spec.ts tries both). So a page where it names anything else gets no widget at
// all, never one from elsewhere. Only a <script src> of this very file is taken (an SVG script is not
// an HTMLScriptElement; inline code has no src). The attribute is read against the page's own
// address, never its <base>: a <base href> in markup after an async tag would otherwise move a
// relative src to another origin once the file was fetched.
const script = document.currentScript
const base = script instanceof HTMLScriptElement ? new URL(script.getAttribute('src')!, location as never).href : ''
/** A promise made on first use and kept; a failed one is made again on the next use (`made`: never passed, the promise's slot). */
const once =
  <T>(make: () => Promise<T>, made?: Promise<T> | 0) =>
  () =>
    (made ||= make().catch((error) => {
      made = 0
      throw error
    }))
// A URL object: import(), a script's src and a template take its href.
const url = (file: string) => new URL(file, base) as unknown as string
const fetch1 = (file: string) => import(/* @vite-ignore */ url(file))
// All the widget's modules; the runtime takes the first, the entry.
const getWidget: Widget = once(() => Promise.all(__WIDGET__.map(fetch1)) as ReturnType<Widget>)
// The runtime runs only once it has matched its hash: a <script type=module integrity> fetches it,
// checked (every browser with modules checks a script's integrity), and import() then takes the
// module that script made, fetching nothing again. A script that fails fires `error`, and the file is
// then never imported: an import() after a failed <script> (a 503, say) fetches the file again,
// unchecked (seen in Chromium 156, e2e/loader.spec.ts). So a retry (once's next call) is a new
// checked <script>, never a bare import() (after a failed check Chromium answers that one from its
// module map: the page gets no widget until it is loaded again). Markup naming `head` or
// `createElement` on the document gives either the same checked script elsewhere, or a TypeError here:
// load_failed.
const getRuntime = once(() =>
  new Promise((onload, onerror) =>
    document.head.append(
      Object.assign(document.createElement('script'), { type: 'module', integrity: __RUNTIME_SRI__, src: url(__RUNTIME__), onload, onerror }),
    ),
  )
    .then(() => fetch1(__RUNTIME__))
    // The very script element checked above (its src is this file's, its data- attributes the declared
    // widgets' settings), never one a query finds, which markup could match.
    .then((module: { start(script: HTMLScriptElement, widget: Widget): Runtime }) => module.start(script as HTMLScriptElement, getWidget)),
)

// The widget's own modules are started now, in parallel; a failure reaches the buyer through the
// runtime's mount (load_failed).
const load = (withWidget?: boolean): Promise<Runtime> => (withWidget && getWidget().catch(() => {}), getRuntime())

/** A call on the runtime, once it is there; an element hears a failed fetch as an error event. */
const run = (call: (api: Runtime) => void, element?: HTMLElement, withWidget?: boolean) =>
  load(withWidget).then(call, () =>
    element?.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name: 'error', payload: loadFailed }, bubbles: true })),
  )

function handle(kind: 'mount' | 'iframe', element: HTMLElement, options: Record<string, unknown>): WidgetHandle {
  const errors = new Set<(payload: unknown) => void>()
  // Calls made before the runtime arrives, replayed on the real handle as soon as it exists (in the
  // same task, so listeners are there before the widget's first event).
  const queue: Array<(h: WidgetHandle) => void> = []
  let real: WidgetHandle | undefined
  const call = (f: (h: WidgetHandle) => void) => (real ? f(real) : queue.push(f))
  load(kind === 'mount').then(
    (api) => {
      real = api[kind](element, options as never)
      queue.forEach((f) => f(real!))
    },
    () => errors.forEach((l) => l(loadFailed)),
  )
  const h: WidgetHandle = {
    update: (o) => call((r) => r.update(o)),
    on: (name, l) => (name === 'error' && errors.add(l as never), call((r) => r.on(name, l)), h),
    off: (name, l) => (errors.delete(l as never), call((r) => r.off(name, l)), h),
    unmount: () => call((r) => r.unmount()),
  }
  return h
}

// A declared <iframe data-stablecoin-widget src="…signed link…"> loads with the partner's page; the
// runtime adopts it (its size, its events) and needs none of the widget's own code for it.
const connect = (el: HTMLElement) => run((api) => api.element.connect(el), el, !(el as HTMLIFrameElement).src)
const declared = () => document.querySelectorAll<HTMLElement>('[data-stablecoin-widget]').forEach(connect)
if (base.endsWith(`/${__LOADER__}`)) {
  customElements.get('stablecoin-widget') ||
    customElements.define(
      'stablecoin-widget',
      class extends HTMLElement {
        // The same list as the runtime's OBSERVED: an attribute change is an update().
        static observedAttributes = 'amount theme locale brand auth-code'.split(' ').flatMap((name) => [name, `data-${name}`])
        attributeChangedCallback(name: string, _old: string | null, value: string | null) {
          run((api) => api.element.attribute(this, name, value))
        }
        connectedCallback() {
          connect(this)
        }
        disconnectedCallback() {
          run((api) => api.element.disconnect(this))
        }
      },
    )

  ;(window as unknown as { StablecoinWidget: object }).StablecoinWidget = {
    mount: (element: HTMLElement, options: Record<string, unknown>) => handle('mount', element, options),
    iframe: (element: HTMLElement, options: Record<string, unknown>) => handle('iframe', element, options),
    version: VERSION,
  }
  // Those already parsed now, the rest once the document is (connecting one twice mounts it once).
  declared()
  document.addEventListener('DOMContentLoaded', declared)
} else console.error(`[stablecoin-widget] not started: document.currentScript is not ${__LOADER__}`)
