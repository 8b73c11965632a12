// The script tag: a stub under 1 KB gzip. It defines StablecoinWidget and <stablecoin-widget>,
// finds the declared widgets, and hands every call to the runtime once it arrives (fetched on first
// use, once; a failed fetch is retried on the next call). Calls keep their order; a handle works
// at once (update, on, off, unmount are queued). mount() fetches the widget's own chunks at the
// same time as the runtime; iframe() and a declared <iframe> need only the runtime.
import { FRAME_ALLOW, type WidgetHandle } from './handle'
import { VERSION } from './protocol'
import type { Runtime, Widget } from './runtime'

// The hashed files of the runtime and of the widget, each with its static imports (from the app
// build's manifest, see vite.loader.config.ts): all fetched at once, no waterfall. And this file's
// own name, as the build writes it.
declare const __RUNTIME__: string
declare const __WIDGET__: string[]
declare const __LOADER__: string

// Every file comes from where this one came from: its own <script src>, read through Document's own
// getter (Reflect.get with the document as receiver), which no markup can hide. `document.currentScript`
// can be (<img name="currentScript" src="…">, a form, an embed): a page where it names anything else
// gets no widget at all, never one from elsewhere. The getter gives a script element or null; only a
// <script src> of this very file is taken (an SVG one, or inline code, has no src attribute). The
// attribute is read against the page's own address, never its <base>: a <base href> in markup after
// an async tag would otherwise move a relative src to another origin once the file was fetched.
const script = Reflect.get(Document.prototype, 'currentScript', document) as HTMLScriptElement | null
const base = script == document.currentScript && script ? new URL(script.getAttribute('src')!, location as never).href : ''
/** A promise made on first use and kept; a failed one is made again on the next use. */
const once = <T,>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined
  return () =>
    (made ??= make().catch((error) => {
      made = undefined
      throw error
    }))
}
const fetch1 = (file: string) => import(/* @vite-ignore */ new URL(file, base).href)
const fetchAll = <T,>(files: string[]): Promise<T> => Promise.all(files.map(fetch1)).then((modules) => modules[0])
const getWidget: Widget = once(() => fetchAll(__WIDGET__))
const getRuntime = once(() =>
  fetch1(__RUNTIME__).then((module: { start(base: string, widget: Widget): Runtime }) => module.start(base, getWidget)),
)

function load(withWidget?: boolean): Promise<Runtime> {
  // Started now, in parallel; a failure reaches the buyer through the runtime's mount (load_failed).
  if (withWidget) getWidget().catch(() => {})
  return getRuntime()
}

const loadFailed = (error: unknown) => ({ code: 'load_failed', message: String(error) })

/** A call on the runtime, once it is there; an element hears a failed fetch as an error event. */
function run(call: (api: Runtime) => void, element?: HTMLElement, withWidget?: boolean) {
  load(withWidget).then(call, (error) => {
    element?.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name: 'error', payload: loadFailed(error) }, bubbles: true }))
  })
}

function handle(kind: 'mount' | 'iframe', element: HTMLElement, options: Record<string, unknown>): WidgetHandle {
  const errors = new Set<(payload: unknown) => void>()
  // Calls made before the runtime arrives, replayed on the real handle as soon as it exists (in the
  // same task, so listeners are there before the widget's first event).
  const queue: Array<(h: WidgetHandle) => void> = []
  let real: WidgetHandle | undefined
  const call = (f: (h: WidgetHandle) => void) => (real ? f(real) : queue.push(f))
  // A signed link needs nothing of the runtime to start loading: the frame starts now, in parallel
  // with the runtime, which takes it over (the frame says nothing until the runtime's hello). Only a
  // link to this widget's embed page starts early; any other is left to the runtime, which refuses
  // it by name.
  let early: HTMLIFrameElement | undefined
  const link = String(options.link)
  if (kind === 'iframe' && link.startsWith(`${new URL('embed.html', base).href}?`)) {
    early = document.createElement('iframe')
    early.src = link
    early.allow = FRAME_ALLOW
    element.append(early)
  }
  load(kind === 'mount').then(
    (api) => {
      real = api[kind](element, options as never, early)
      for (const f of queue.splice(0)) f(real)
    },
    (error) => errors.forEach((l) => l(loadFailed(error))),
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
const LIVE = 'amount theme locale brand auth-code'.split(' ')
const declared = () => document.querySelectorAll<HTMLElement>('[data-stablecoin-widget]').forEach(connect)
if (base.endsWith(`/${__LOADER__}`)) {
  customElements.get('stablecoin-widget') ||
    customElements.define(
      'stablecoin-widget',
      class extends HTMLElement {
        // The same list as the runtime's OBSERVED: an attribute change is an update().
        static observedAttributes = LIVE.flatMap((name) => [name, `data-${name}`])
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
    mount: handle.bind(null, 'mount'),
    iframe: handle.bind(null, 'iframe'),
    version: VERSION,
  }
  // Those already parsed now, the rest once the document is (connecting one twice mounts it once).
  declared()
  document.addEventListener('DOMContentLoaded', declared)
} else console.error(`[stablecoin-widget] not started: document.currentScript is not ${__LOADER__}`)
