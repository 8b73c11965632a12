// Options ⇄ query parameters (or data-attributes), without zod: the script-tag loader uses it too.
// Objects travel as JSON, lists as commas, booleans as 1/0; checking is parseOptions' job.

const JSON_OPTIONS = ['chains', 'sources', 'destination', 'brand']
const LIST_OPTIONS = ['currencies', 'cardHosts', 'flows']
const BOOLEAN_OPTIONS = ['sandbox', 'lockAmount', 'closable', 'history', 'partnerCookies', 'walletLink']

export type RawOptions = Record<string, unknown>

/**
 * What markup may choose for a widget it declares (`<stablecoin-widget>`, `<div data-stablecoin-widget>`):
 * the options any link may set (config/link.ts BUYER_FACING), but a return address and a locked
 * amount, which a link sets only within the registry or under the partner's signature. Where money
 * and identity go comes from the loader's own <script> tag (or the partner's script), never from
 * markup, which a comment field or a product description can carry.
 */
export const MARKUP_OPTIONS = ['flow', 'amount', 'currencies', 'locale', 'theme', 'brand', 'cardCrypto', 'authCode', 'closable']

export function optionsFromParams(params: Iterable<[string, string]>): RawOptions {
  const options: RawOptions = {}
  for (const [key, raw] of params) {
    if (JSON_OPTIONS.includes(key)) {
      try {
        options[key] = JSON.parse(raw)
      } catch {
        options[key] = `(not JSON: ${raw.slice(0, 40)})`
      }
    } else if (LIST_OPTIONS.includes(key)) {
      options[key] = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    } else if (BOOLEAN_OPTIONS.includes(key)) {
      options[key] = raw === '1' || raw === 'true' || raw === ''
    } else {
      options[key] = raw
    }
  }
  return options
}

export function paramsFromOptions(options: RawOptions): URLSearchParams {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || value === null || typeof value === 'function') continue
    if (Array.isArray(value) && LIST_OPTIONS.includes(key)) params.set(key, value.join(','))
    else if (typeof value === 'object') params.set(key, JSON.stringify(value))
    else if (typeof value === 'boolean') params.set(key, value ? '1' : '0')
    else params.set(key, String(value))
  }
  return params
}

/** `data-api-base` / `api-base` → `apiBase`. */
export function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
}
