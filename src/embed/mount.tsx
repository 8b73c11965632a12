// The widget the script-tag runtime and the npm package mount on partners' pages (the loader's
// `mount` entry): widgetMount with the stylesheet, adopted in the widget's shadow root.
import css from '../styles.css?inline'
import { applyUpdate } from './liveUpdate'
import { type MountOptions, type Mounted, mountWidget as mountBare } from './widgetMount'

export type { MountOptions, Mounted }

export function mountWidget(...[host, options, how]: Parameters<typeof mountBare>): Mounted {
  return mountBare(host, options, { ...how, css, update: applyUpdate })
}
