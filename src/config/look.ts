// How the widget looks: its theme and the partner's brand (colour, corner radius, font).
import { number, object, oneOf, optional, string } from './check'
import { between } from './fields'

export const themes = ['light', 'dark', 'auto'] as const
export type Theme = (typeof themes)[number]
/** The theme where the options name none. */
export const DEFAULT_THEME = 'light'
export const theme = oneOf(themes)

export type Brand = { color?: string; radius?: number; font?: string }
const cssColor = string([(s) => /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(s), 'must be a hex colour like #1d4ed8'])
export const brand = object({
  color: optional(cssColor),
  radius: optional(number([between(0, Infinity)], [between(-Infinity, 32)])),
  font: optional(string([(s) => /^[\w\s,'"-]{1,120}$/.test(s), 'must be a font-family list'])),
})
