// The script tag: defines StablecoinWidget, the <stablecoin-widget> element, mounts the declared
// widgets, and fetches the widget itself on first use (once, cached; a failed load is retried).
import type { WidgetHandle } from './handle'
import { createApi } from './api'
import { VERSION } from './protocol'

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

const api = createApi(loadRuntime, () => new URL('embed.html', base))
api.defineElement()

const declared = new WeakMap<Element, WidgetHandle>()
function autoMount() {
  for (const element of Array.from(document.querySelectorAll<HTMLElement>('[data-stablecoin-widget]'))) {
    if (!declared.has(element)) declared.set(element, api.mountDeclared(element))
  }
}

;(window as unknown as { StablecoinWidget: object }).StablecoinWidget = { mount: api.mount, iframe: api.iframe, version: VERSION }
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', autoMount, { once: true })
else autoMount()
