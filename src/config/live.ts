// What `update()` may change after mounting, without a remount.
import { type Schema, check, object, optional } from './check'
import { authCode, decimalString, locale } from './fields'
import { type Brand, type Theme, brand, theme } from './look'

const liveShape = {
  theme: optional(theme),
  brand: optional(brand),
  locale: optional(locale),
  amount: optional(decimalString),
  authCode: optional(authCode),
}
export type LiveUpdate = { theme?: Theme; brand?: Brand; locale?: string; amount?: string; authCode?: string }
const live: Schema<LiveUpdate> = object(liveShape)

/** What `update()` may change without a remount, checked like the options at mount. */
export function parseLiveOptions(options: Record<string, unknown>): { ok: true; update: LiveUpdate } | { ok: false; problem: string } {
  const unknown = Object.keys(options).find((key) => !Object.hasOwn(liveShape, key) && options[key] !== undefined)
  if (unknown) return { ok: false, problem: `${unknown}: cannot change after mounting; mount the widget again with it` }
  const parsed = check(live, options)
  if (parsed.success) return { ok: true, update: parsed.data }
  const issue = parsed.issue
  return { ok: false, problem: `${issue.path.join('.') || 'options'}: ${issue.message}` }
}
