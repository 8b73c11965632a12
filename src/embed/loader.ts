// The script tag: a stub under 1 KB gzip. It defines StablecoinWidget and <stablecoin-widget>,
// finds the declared widgets, and hands every call to the runtime once it arrives (fetched on first
// use, once; a failed fetch is retried on the next call). Calls keep their order; a handle works
// at once (update, on, off, unmount are queued). mount() fetches the widget's own chunks at the
// same time as the runtime; iframe() needs only the runtime.
import { type EarlyFrame, FRAME_ALLOW, type WidgetHandle } from './handle'
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
  const call = (f: (h: WidgetHandle) => void) => (real ? f(real) : queue.push(f))
  // A signed link needs nothing of the runtime to start loading: the frame starts now, in parallel
  // with the runtime, which takes it over with what it said meanwhile. Only a link to this widget's
  // embed page starts early; any other is left to the runtime, which refuses it by name.
  let early: EarlyFrame | undefined
  const link = String(options.link)
  if (kind === 'iframe' && link.startsWith(`${new URL('embed.html', base).href}?`)) {
    const frame = document.createElement('iframe')
    const heard: MessageEvent[] = []
    const hear = (event: MessageEvent) => event.source === frame.contentWindow && heard.push(event)
    frame.src = link
    frame.allow = FRAME_ALLOW
    addEventListener('message', hear)
    element.append(frame)
    early = { frame, heard, hear }
  }
  load(kind === 'mount').then(
    (api) => {
      real = api[kind](element, options as never, early)
      for (const f of queue.splice(0)) f(real)
    },
    (error) => {
      if (early) removeEventListener('message', early.hear)
      errors.forEach((l) => l(loadFailed(error)))
    },
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
const LIVE = 'amount theme locale brand auth-code'.split(' ')
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
const declared = () => document.querySelectorAll<HTMLElement>('[data-stablecoin-widget]').forEach(connect)
// Those already parsed now, the rest once the document is (connecting one twice mounts it once).
declared()
document.addEventListener('DOMContentLoaded', declared)
