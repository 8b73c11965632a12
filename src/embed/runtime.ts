// What the script-tag loader's stub fetches on first use: mount, iframe, the element and declared
// widgets behind it. The widget itself (mount.tsx and what it imports) is `widget`: the stub starts
// fetching it together with this module when a call needs it, so neither waits for the other, and
// iframe() never fetches it at all.
import { createApi, tagSettings } from './api'

// The widget's modules, its entry first (the stub fetches them all at once).
export type Widget = () => Promise<[Pick<typeof import('./mount'), 'mountWidget'>, ...unknown[]]>

/**
 * `script`: the loader's own <script> element, the one it checked (never one a query finds, which
 * markup could match). Its src, read as the loader read it (against the page's own address, never a
 * <base>), is where the widget's files are; its data- attributes are the declared widgets' service
 * settings.
 */
export function start(script: HTMLScriptElement, widget: Widget) {
  const base = new URL(script.getAttribute('src')!, location.href)
  return createApi(
    () => widget().then((modules) => modules[0]),
    () => new URL('embed.html', base),
    tagSettings(script),
  )
}
export type Runtime = ReturnType<typeof start>
