// mount() and iframe(), shared by the script-tag loader and the npm package. No side effects at
// import: nothing touches window or document until one of them is called.
import { type RawOptions, camel, optionsFromParams, paramsFromOptions } from '../config/params'
import { type EarlyFrame, FRAME_ALLOW, FRAME_STYLE, FRAME_TITLE, type WidgetHandle, listeners } from './handle'
import { HOST, VERSION, isGuestMessage, type WidgetEventName } from './protocol'

type Runtime = Pick<typeof import('./mount'), 'mountWidget'>

const LIVE = ['amount', 'theme', 'locale', 'brand', 'auth-code']
/** The element's attributes that change a live widget (the loader's stub element observes the same). */
export const OBSERVED = LIVE.flatMap((name) => [name, `data-${name}`])

export const EVENT_NAMES: readonly WidgetEventName[] = ['ready', 'screen', 'quote', 'submitted', 'status', 'complete', 'error', 'close', 'account']

export function createApi(load: () => Promise<Runtime>, embedPage: () => URL) {
  function mount(element: HTMLElement, options: RawOptions): WidgetHandle {
    const events = listeners()
    let mounted: { update(o: RawOptions): void; unmount(): void } | undefined
    let gone = false
    const pending: RawOptions[] = []
    load().then(
      (rt) => {
        if (gone) return
        mounted = rt.mountWidget(element, options, { shadow: true, closable: options.closable === true, emit: events.emit })
        for (const o of pending.splice(0)) mounted.update(o)
      },
      (error) => events.emit('error', { code: 'load_failed', message: String(error) }),
    )
    const handle: WidgetHandle = {
      update: (o) => (mounted ? mounted.update(o) : pending.push(o)),
      on: (name, l) => (events.add(name, l as never), handle),
      off: (name, l) => (events.remove(name, l as never), handle),
      unmount() {
        gone = true
        mounted?.unmount()
        events.clear()
      },
    }
    return handle
  }

  /**
   * The widget in an iframe of ours: sized to its content, talking only to its own origin. The frame
   * takes its partner's settings from the registry (`partner`), buyer-facing options from its URL,
   * and signed options only from a `link` the partner's server signed (signWidgetUrl).
   */
  function iframe(element: HTMLElement, options: RawOptions, early?: EarlyFrame): WidgetHandle {
    const events = listeners()
    const page = embedPage()
    let src = page
    if (typeof options.link === 'string') {
      src = new URL(options.link, page)
      if (src.origin !== page.origin || src.pathname !== page.pathname) {
        console.error(`[stablecoin-widget] link: must be this widget's embed page (${page.href})`)
        src = page
      }
    } else {
      const { closable, title, ...rest } = options
      src.search = paramsFromOptions(rest).toString()
    }
    // The stub may have started the frame already (same src, checked the same way): keep it loading.
    const frame = early?.frame ?? document.createElement('iframe')
    frame.title = String(options.title ?? FRAME_TITLE)
    frame.style.cssText = FRAME_STYLE
    if (!early) {
      frame.src = src.href
      frame.allow = FRAME_ALLOW
    }
    // Commands wait until the frame's page has spoken: before that it is still about:blank.
    let waiting: object[] | undefined = []
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== src.origin || event.source !== frame.contentWindow || !isGuestMessage(event.data)) return
      const message = event.data
      // The frame's hello went to each registered origin; ours answers it, so the frame knows its parent.
      if (message.kind === 'hello') frame.contentWindow?.postMessage({ source: HOST, version: VERSION, kind: 'hello' }, src.origin)
      const queued = waiting
      waiting = undefined
      for (const m of queued ?? []) post(m)
      if (message.kind === 'resize') frame.style.height = `${Math.ceil(message.height)}px`
      else if (message.kind === 'event') events.emit(message.event.name, message.event.payload)
    }
    window.addEventListener('message', onMessage)
    if (early) {
      window.removeEventListener('message', early.hear)
      // After the caller has its handle and its listeners (the stub replays them right away).
      queueMicrotask(() => {
        for (const event of early.heard) onMessage(event)
      })
    } else element.appendChild(frame)
    const post = (message: object) =>
      waiting ? waiting.push(message) : frame.contentWindow?.postMessage({ source: HOST, version: VERSION, ...message }, src.origin)
    const handle: WidgetHandle = {
      update: (o) =>
        post(typeof o.authCode === 'string' && Object.keys(o).length === 1 ? { kind: 'authCode', code: o.authCode } : { kind: 'update', options: o }),
      on: (name, l) => (events.add(name, l as never), handle),
      off: (name, l) => (events.remove(name, l as never), handle),
      unmount() {
        window.removeEventListener('message', onMessage)
        frame.remove()
        events.clear()
      },
    }
    return handle
  }

  /** What `<stablecoin-widget>` does when it is connected, disconnected or an attribute changes. */
  const handles = new WeakMap<Element, WidgetHandle>()
  const element = {
    connect(el: HTMLElement) {
      if (!handles.has(el)) handles.set(el, mountDeclared(el))
    },
    disconnect(el: HTMLElement) {
      handles.get(el)?.unmount()
      handles.delete(el)
    },
    // What may change without a remount: an attribute change is an update().
    attribute(el: HTMLElement, name: string, value: string | null) {
      if (value !== null) handles.get(el)?.update(optionsFromParams([[camel(name.replace(/^data-/, '')), value]]))
    },
  }

  /** `<stablecoin-widget flow="…" api-base="…">`; events come as `stablecoin-widget` DOM events. */
  function defineElement(name = 'stablecoin-widget') {
    if (customElements.get(name)) return
    customElements.define(
      name,
      class extends HTMLElement {
        static observedAttributes = OBSERVED
        attributeChangedCallback(name: string, _old: string | null, value: string | null) {
          element.attribute(this, name, value)
        }
        connectedCallback() {
          element.connect(this)
        }
        disconnectedCallback() {
          element.disconnect(this)
        }
      },
    )
  }

  /** A widget declared in markup: options from its attributes, events as `stablecoin-widget` DOM events on it. */
  function mountDeclared(element: HTMLElement): WidgetHandle {
    const handle = mount(element, optionsOf(element))
    for (const event of EVENT_NAMES) {
      handle.on(event, (payload) => element.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name: event, payload }, bubbles: true })))
    }
    return handle
  }

  return { mount, iframe, defineElement, mountDeclared, element }
}

/** Options from an element's attributes: `data-api-base` and `api-base` both give `apiBase`. */
export function optionsOf(element: HTMLElement): RawOptions {
  const pairs: Array<[string, string]> = []
  for (const attr of Array.from(element.attributes)) {
    const name = attr.name.startsWith('data-') ? attr.name.slice(5) : attr.name
    if (name !== 'stablecoin-widget' && name !== 'class' && name !== 'style' && name !== 'id') pairs.push([camel(name), attr.value])
  }
  return optionsFromParams(pairs)
}
