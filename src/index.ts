// The npm package: import { mount } from 'stablecoin-widget'. Nothing runs at import time (safe
// to import during server rendering); the widget itself loads on the first mount.
import { createApi } from './embed/api'

export type { WidgetOptions, Theme, Brand, Flow } from './config/config'
export type { WidgetEventMap, WidgetEventName } from './config/protocol'
export type { WidgetHandle } from './embed/handle'

let api: ReturnType<typeof createApi> | undefined
let embedBase = ''

function get() {
  api ??= createApi(
    () => import('./embed/mount'),
    () => {
      if (!embedBase) throw new Error('stablecoin-widget: call setEmbedBase(url of the hosted widget) before iframe()')
      return new URL('embed.html', embedBase)
    },
  )
  return api
}

/** Mounts the widget in `element`'s shadow root. */
export function mount(element: HTMLElement, options: import('./config/config').WidgetOptions & { closable?: boolean; history?: boolean }) {
  return get().mount(element, options)
}

/** Where the hosted widget (dist/) is served, for iframe(): e.g. https://cdn.example.com/stablecoin-widget/ */
export function setEmbedBase(url: string) {
  embedBase = url
}

export function iframe(element: HTMLElement, options: import('./config/config').WidgetOptions) {
  return get().iframe(element, options)
}

/**
 * Registers <stablecoin-widget>. `settings`: the service's settings of every declared widget (apiBase,
 * partnerBase, cardHosts…): markup gives a declared widget only the options a buyer may choose.
 */
export function defineElement(name?: string, settings?: Partial<import('./config/config').WidgetOptions>) {
  get().defineElement(name, settings)
}
