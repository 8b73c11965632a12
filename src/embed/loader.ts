// The script tag: a stub under 1 KB gzip. It defines StablecoinWidget and <stablecoin-widget>,
// finds the declared widgets, and hands every call to the runtime once it arrives (fetched on first
// use, once; a failed fetch is retried on the next call). Calls keep their order; a handle works
// at once (update, on, off, unmount are queued). mount() fetches the widget's own chunks at the
// same time as the runtime; iframe() needs only the runtime.
import type { WidgetHandle } from './handle'
import { VERSION } from './protocol'
import type { Runtime, Widget } from './runtime'

// The hashed files of the runtime and of the widget, each with its static imports (from the app
// build's manifest, see vite.loader.config.ts): all fetched at once, no waterfall.
declare const __RUNTIME__: string[]
declare const __WIDGET__: string[]

type Load = Promise<Runtime>
const base = (document.currentScript as HTMLScriptElement | null)?.src ?? location.href
const fetchAll = <T,>(files: string[]): Promise<T> =>
  Promise.all(files.map((file) => import(/* @vite-ignore */ new URL(file, base).href))).then((modules) => modules[0])
let runtime: Load | undefined
let widget: ReturnType<Widget> | undefined
const getWidget: Widget = () =>
  (widget ??= fetchAll<Awaited<ReturnType<Widget>>>(__WIDGET__).catch((error) => {
    widget = undefined
    throw error
  }))

function load(withWidget?: boolean): Load {
  // Started now, in parallel; a failure reaches the buyer through the runtime's mount (load_failed).
  if (withWidget) getWidget().catch(() => {})
  return (runtime ??= fetchAll<{ start(base: string, widget: Widget): Runtime }>(__RUNTIME__).then(
    (module) => module.start(base, getWidget),
    (error) => {
      runtime = undefined
      throw error
    },
  ))
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
  const call = (f: (h: WidgetHandle) => void) => void (real ? f(real) : queue.push(f))
  load(kind === 'mount').then(
    (api) => {
      real = api[kind](element, options as never)
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

const connect = (el: HTMLElement) => run((api) => api.element.connect(el), el, true)
const LIVE = ['amount', 'theme', 'locale', 'brand', 'auth-code']
customElements.get('stablecoin-widget') ||
  customElements.define(
    'stablecoin-widget',
    class extends HTMLElement {
      // The same list as the runtime's OBSERVED: an attribute change is an update().
      static observedAttributes = LIVE.flatMap((name) => [name, `data-${name}`])
      // Before the first connection there is no widget to update or remove: nothing to fetch.
      attributeChangedCallback(name: string, _old: string | null, value: string | null) {
        if (runtime) run((api) => api.element.attribute(this, name, value))
      }
      connectedCallback() {
        connect(this)
      }
      disconnectedCallback() {
        if (runtime) run((api) => api.element.disconnect(this))
      }
    },
  )

;(window as unknown as { StablecoinWidget: object }).StablecoinWidget = {
  mount: (element: HTMLElement, options: Record<string, unknown>) => handle('mount', element, options),
  iframe: (element: HTMLElement, options: Record<string, unknown>) => handle('iframe', element, options),
  version: VERSION,
}
const declared = () => document.querySelectorAll<HTMLElement>('[data-stablecoin-widget]').forEach(connect)
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', declared, { once: true })
else declared()
