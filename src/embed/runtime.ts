// What the script-tag loader's stub fetches on first use: mount, iframe, the element and declared
// widgets behind it. The widget itself (mount.tsx and what it imports) is `widget`: the stub starts
// fetching it together with this module when a call needs it, so neither waits for the other, and
// iframe() never fetches it at all.
import { createApi } from './api'

// The widget's modules, its entry first (the stub fetches them all at once).
export type Widget = () => Promise<[Pick<typeof import('./mount'), 'mountWidget'>, ...unknown[]]>

export function start(base: string, widget: Widget) {
  return createApi(() => widget().then((modules) => modules[0]), () => new URL('embed.html', base))
}
export type Runtime = ReturnType<typeof start>
