// What the script-tag loader fetches on first use: the widget itself.
export { mountWidget } from './mount'
export type { Mounted, MountOptions } from './mount'
