// The widget the script-tag runtime and the npm package mount on partners' pages (the loader's
// `mount` entry): widgetMount with the stylesheet, adopted in the widget's shadow root, the check of
// options a page wrote by hand (unknownOptions.ts) and update() (liveUpdate.ts).
import css from '../styles.css?inline'
import { applyUpdate } from './liveUpdate'
import { warnUnknown } from './unknownOptions'
import { type MountOptions, type Mounted, mountWidget as mountBare } from './widgetMount'

export type { MountOptions, Mounted }
/** The frame's update() too (guest.tsx fetches this entry with its parent's first update). */
export { applyUpdate }

export function mountWidget(...[host, options, how]: Parameters<typeof mountBare>): Mounted {
  if (how.shadow) warnUnknown(options)
  return mountBare(host, options, { ...how, css, update: applyUpdate })
}
