// mount() and iframe(), shared by the script-tag loader and the npm package. No side effects at
// import: nothing touches window or document until one of them is called.
import { MARKUP_OPTIONS, type RawOptions, camel, optionsFromParams, paramsFromOptions } from '../config/params'
import { FRAME_ALLOW, FRAME_STYLE, FRAME_TITLE, type WidgetHandle, listeners } from './handle'
import { HOST, VERSION, isGuestMessage, type WidgetEventName } from '../config/protocol'
import { loadFailed } from '../errors/partnerErrors'

type Runtime = Pick<typeof import('./mount'), 'mountWidget'>

const LIVE = ['amount', 'theme', 'locale', 'brand', 'auth-code']
/** The element's attributes that change a live widget (the loader's stub element observes the same). */
export const OBSERVED = LIVE.flatMap((name) => [name, `data-${name}`])

export const EVENT_NAMES: readonly WidgetEventName[] = ['ready', 'screen', 'quote', 'submitted', 'status', 'complete', 'error', 'close', 'account']

/**
 * `settings`: a declared widget's service settings (apiBase, partnerBase, cardHosts, chains…): the
 * loader's own <script> tag's data- attributes (runtime.ts), or what the partner's script gave
 * defineElement (npm). Markup gives a declared widget only MARKUP_OPTIONS.
 */
export function createApi(load: () => Promise<Runtime>, embedPage: () => URL, settings: RawOptions = {}) {
  function mount(element: HTMLElement, options: RawOptions): WidgetHandle {
    const events = listeners()
    let mounted: { update(o: RawOptions): void; unmount(): void } | undefined
    let gone = false
    const pending: RawOptions[] = []
    load().then(
      (rt) => {
        if (gone) return
        mounted = rt.mountWidget(element, options, { shadow: true, closable: options.closable === true, history: options.history === true, emit: events.emit })
        for (const o of pending.splice(0)) mounted.update(o)
      },
      () => events.emit('error', { ...loadFailed }),
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
  function iframe(element: HTMLElement, options: RawOptions): WidgetHandle {
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
      const { closable, history, title, ...rest } = options
      src.search = paramsFromOptions(rest).toString()
    }
    const frame = document.createElement('iframe')
    frame.title = String(options.title ?? FRAME_TITLE)
    frame.style.cssText = FRAME_STYLE
    frame.src = src.href
    frame.allow = FRAME_ALLOW
    element.appendChild(frame)
    return relay(frame, src.origin, events)
  }

  /**
   * A frame of ours, heard and commanded: its height followed, its events to `events`. The frame says
   * nothing until its parent has said hello, so a frame that loaded before this page listened (one
   * declared in the partner's HTML) loses nothing: it is greeted now
   * unless it still shows its first about:blank, and whenever it loads. Its own
   * hello is answered too. Commands wait until it has spoken (before that it may be about:blank).
   */
  function relay(frame: HTMLIFrameElement, origin: string, events: ReturnType<typeof listeners>): WidgetHandle {
    let waiting: object[] | undefined = []
    const hello = () => post({ kind: 'hello' }, true)
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== origin || event.source !== frame.contentWindow || !isGuestMessage(event.data)) return
      const message = event.data
      if (message.kind === 'hello') hello()
      const queued = waiting
      waiting = undefined
      for (const m of queued ?? []) post(m)
      if (message.kind === 'resize') frame.style.height = `${Math.ceil(message.height)}px`
      else if (message.kind === 'event') events.emit(message.event.name, message.event.payload)
    }
    const post = (message: object, now = false) =>
      waiting && !now ? waiting.push(message) : frame.contentWindow?.postMessage({ source: HOST, version: VERSION, ...message }, origin)
    window.addEventListener('message', onMessage)
    frame.addEventListener('load', hello)
    // Not while it still shows its first about:blank (its load comes): a cross-origin page has no
    // document here, a same-origin one (the widget served from the partner's origin) has its own.
    if (frame.contentDocument?.URL !== 'about:blank') hello()
    const handle: WidgetHandle = {
      update: (o) =>
        post(typeof o.authCode === 'string' && Object.keys(o).length === 1 ? { kind: 'authCode', code: o.authCode } : { kind: 'update', options: o }),
      on: (name, l) => (events.add(name, l as never), handle),
      off: (name, l) => (events.remove(name, l as never), handle),
      unmount() {
        window.removeEventListener('message', onMessage)
        frame.removeEventListener('load', hello)
        frame.remove()
        events.clear()
      },
    }
    return handle
  }

  /**
   * `<iframe data-stablecoin-widget src="…embed.html?…signed link…">` in the partner's HTML: it loads
   * with the page, before any script, and says nothing until the runtime adopts it: then its height
   * follows its content, and its events are `stablecoin-widget` DOM events on it. Only a frame showing this
   * widget's embed page is adopted; any other is refused by name and left alone.
   */
  function adoptFrame(frame: HTMLIFrameElement): WidgetHandle | undefined {
    const page = embedPage()
    const src = parseUrl(frame.src)
    // A srcdoc is shown instead of the src.
    if (!src || src.origin !== page.origin || src.pathname !== page.pathname || frame.hasAttribute('srcdoc')) {
      console.error(`[stablecoin-widget] a declared iframe must show this widget's embed page (${page.href})`)
      return undefined
    }
    if (!frame.title) frame.title = FRAME_TITLE
    const handle = relay(frame, src.origin, listeners())
    for (const event of EVENT_NAMES) {
      handle.on(event, (payload) => frame.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name: event, payload }, bubbles: true })))
    }
    return handle
  }

  /** What `<stablecoin-widget>` does when it is connected, disconnected or an attribute changes. */
  const handles = new WeakMap<Element, WidgetHandle | undefined>()
  const element = {
    connect(el: HTMLElement) {
      // Once per element: a refused frame is remembered too (as no handle), and refused once.
      if (!handles.has(el)) handles.set(el, el instanceof HTMLIFrameElement ? adoptFrame(el) : mountDeclared(el))
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
  function defineElement(name = 'stablecoin-widget', more: RawOptions = {}) {
    Object.assign(settings, more)
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

  /**
   * A widget declared in markup: the service's settings from `settings`, the buyer's choices from its
   * attributes; events as `stablecoin-widget` DOM events on it.
   */
  function mountDeclared(element: HTMLElement): WidgetHandle {
    const chosen = markupOptions(element)
    // An amount the loader's tag locks is the partner's: markup (which anyone who can write into the
    // page may add) never replaces it, as a link's locked amount needs a signature.
    if (settings.lockAmount && chosen.amount !== undefined) {
      console.warn('[stablecoin-widget] amount: locked by the loader tag (lockAmount); ignored')
      delete chosen.amount
    }
    const handle = mount(element, { ...settings, ...chosen })
    for (const event of EVENT_NAMES) {
      handle.on(event, (payload) => element.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name: event, payload }, bubbles: true })))
    }
    return handle
  }

  return { mount, iframe, defineElement, mountDeclared, element }
}

function parseUrl(href: string): URL | undefined {
  try {
    return new URL(href)
  } catch {
    return undefined
  }
}

/** Options from an element's attributes (`data-` ones only, when `prefix`): `data-api-base` and `api-base` both give `apiBase`. */
function attributes(element: Element, prefix = ''): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const attr of Array.from(element.attributes)) {
    const name = attr.name.startsWith('data-') ? attr.name.slice(5) : prefix ? '' : attr.name
    if (name) pairs.push([camel(name), attr.value])
  }
  return pairs
}

/** The loader's own <script> tag's settings: its `data-` attributes (never its src, integrity…). */
export const tagSettings = (script: HTMLScriptElement): RawOptions => optionsFromParams(attributes(script, 'data-'))

/**
 * What a declared widget's own attributes may choose: MARKUP_OPTIONS. Any other option (apiBase,
 * partnerBase, a signed one…) is ignored with a warning naming it; attributes of the element itself
 * (class, id, aria-…) silently.
 */
export function markupOptions(element: HTMLElement): RawOptions {
  const pairs = attributes(element).filter(([name]) => {
    if (MARKUP_OPTIONS.includes(name)) return true
    if (!/^(stablecoinWidget|class|style|id|aria|role$|title$|hidden$|lang$|dir$|tabindex$|slot$|part$)/.test(name)) {
      console.warn(`[stablecoin-widget] ${name}: not taken from markup (the service's settings come from the loader's <script> tag, or your script); ignored`)
    }
    return false
  })
  return optionsFromParams(pairs)
}
