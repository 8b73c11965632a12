// The handle a partner holds, the same in script and iframe modes.
import type { WidgetEventMap, WidgetEventName } from '../config/protocol'

export type Listener<K extends WidgetEventName> = (payload: WidgetEventMap[K]) => void

export type WidgetHandle = {
  /** Change options without a remount: amount, theme, brand, locale, authCode. */
  update(options: Record<string, unknown>): void
  on<K extends WidgetEventName>(name: K, listener: Listener<K>): WidgetHandle
  off<K extends WidgetEventName>(name: K, listener: Listener<K>): WidgetHandle
  /** Removes the widget and every listener, timer and poll it started. */
  unmount(): void
}

export function listeners() {
  const map = new Map<string, Set<(payload: unknown) => void>>()
  return {
    add: (name: string, l: (payload: unknown) => void) => void (map.get(name) ?? map.set(name, new Set()).get(name))?.add(l),
    remove: (name: string, l: (payload: unknown) => void) => void map.get(name)?.delete(l),
    emit(name: string, payload: unknown) {
      // A failing listener must not stop the others (nor the widget): report it asynchronously.
      for (const l of map.get(name) ?? []) queueMicrotask(() => l(payload))
    },
    clear: () => map.clear(),
  }
}

/** The iframe of iframe(): its permissions, title and starting style. */
export const FRAME_ALLOW = 'payment; clipboard-write'
export const FRAME_TITLE = 'Payment widget'
export const FRAME_STYLE = 'width:100%;max-width:440px;border:0;display:block;height:480px'
