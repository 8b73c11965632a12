// The script tag: a few hundred bytes that define StablecoinWidget, mount the declared widgets, and
// fetch the widget itself on first use (once, cached; a failed load is retried on the next mount).
import { camel, optionsFromParams, paramsFromOptions, type RawOptions } from '../config/params'
import { type WidgetHandle, listeners } from './handle'
import { HOST, VERSION, isGuestMessage } from './protocol'

declare const __RUNTIME__: string
type Runtime = typeof import('./runtime')

const script = document.currentScript as HTMLScriptElement | null
const base = script?.src ?? location.href
let runtime: Promise<Runtime> | undefined

function loadRuntime(): Promise<Runtime> {
  runtime ??= import(/* @vite-ignore */ new URL(__RUNTIME__, base).href).catch((error) => {
    runtime = undefined
    throw error
  })
  return runtime
}

function mount(element: HTMLElement, options: RawOptions): WidgetHandle {
  const events = listeners()
  let mounted: { update(o: RawOptions): void; unmount(): void } | undefined
  let gone = false
  const pending: RawOptions[] = []
  loadRuntime().then(
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

/** The widget in an iframe of ours: sized to its content, talking only to its own origin. */
function iframe(element: HTMLElement, options: RawOptions): WidgetHandle {
  const events = listeners()
  const src = new URL('embed.html', base)
  const params = paramsFromOptions({ ...options, parentOrigin: location.origin })
  src.search = params.toString()
  const frame = document.createElement('iframe')
  frame.src = src.href
  frame.title = String(options.title ?? 'Payment widget')
  frame.allow = 'payment; clipboard-write'
  frame.style.cssText = 'width:100%;max-width:440px;border:0;display:block;height:480px'
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== src.origin || event.source !== frame.contentWindow || !isGuestMessage(event.data)) return
    const message = event.data
    if (message.kind === 'resize') frame.style.height = `${Math.ceil(message.height)}px`
    else events.emit(message.event.name, message.event.payload)
  }
  window.addEventListener('message', onMessage)
  element.appendChild(frame)
  const post = (message: object) => frame.contentWindow?.postMessage({ source: HOST, version: VERSION, ...message }, src.origin)
  const handle: WidgetHandle = {
    update: (o) => post(typeof o.authCode === 'string' && Object.keys(o).length === 1 ? { kind: 'authCode', code: o.authCode } : { kind: 'update', options: o }),
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

function optionsOf(element: HTMLElement): RawOptions {
  const pairs: Array<[string, string]> = []
  for (const attr of Array.from(element.attributes)) {
    const name = attr.name.startsWith('data-') ? attr.name.slice(5) : attr.name
    if (name !== 'stablecoin-widget' && name !== 'class' && name !== 'style' && name !== 'id') pairs.push([camel(name), attr.value])
  }
  return optionsFromParams(pairs)
}

const EVENT_NAMES = ['ready', 'screen', 'quote', 'submitted', 'status', 'complete', 'error', 'close'] as const
const handles = new WeakMap<Element, WidgetHandle>()

function autoMount() {
  for (const element of Array.from(document.querySelectorAll<HTMLElement>('[data-stablecoin-widget]'))) {
    if (!handles.has(element)) handles.set(element, mount(element, optionsOf(element)))
  }
}

if (!customElements.get('stablecoin-widget')) {
  customElements.define(
    'stablecoin-widget',
    class extends HTMLElement {
      connectedCallback() {
        if (handles.has(this)) return
        const handle = mount(this, optionsOf(this))
        // No handle in markup: events come as DOM events on the element.
        for (const name of EVENT_NAMES) {
          handle.on(name, (payload) => this.dispatchEvent(new CustomEvent('stablecoin-widget', { detail: { name, payload }, bubbles: true })))
        }
        handles.set(this, handle)
      }
      disconnectedCallback() {
        handles.get(this)?.unmount()
        handles.delete(this)
      }
    },
  )
}

const api = { mount, iframe, version: VERSION }
;(window as unknown as { StablecoinWidget: typeof api }).StablecoinWidget = api
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', autoMount, { once: true })
else autoMount()
