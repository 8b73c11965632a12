// The checks the options' fields share (config.ts, chains.ts, look.ts, live.ts): addresses, links,
// ids, numbers, amounts, language tags.
import { carriesCredentials } from '../lib/credentials'
import { string } from './check'

// No user name or password in it (lib/credentials.ts): a way to smuggle them, or to dress a phishing
// address up as a registered one.
export const httpUrl = string([
  (s) => {
    try {
      const url = new URL(s)
      return ['http:', 'https:'].includes(url.protocol) && !carriesCredentials(url, s)
    } catch {
      return false
    }
  },
  'must be an http(s) address without a user name or password',
])
export const address = string([(s) => /^0x[0-9a-fA-F]{40}$/.test(s), 'must be an address'])
// The service's ids are opaque: 1 to 128 printable ASCII characters, no space (the stored account's bound, identity/storedChecks.ts).
export const opaqueId = string([(s) => /^[\x21-\x7e]{1,128}$/.test(s)])
export const int = (n: number) => Number.isSafeInteger(n)
export const positive = (n: number) => n > 0
export const between = (min: number, max: number) => (n: number) => n >= min && n <= max
export const length =
  (min: number, max = Infinity) =>
  (s: { length: number }) =>
    s.length >= min && s.length <= max

// A prefilled amount: a decimal string of at most 20 digits and 18 decimals (no amount anyone pays is longer).
export const decimalString = string([(s) => /^\d{1,20}(?:\.\d{1,18})?$/.test(s), 'must be a decimal string (at most 20 digits and 18 decimals)'])
export const authCode = string([length(1)], [length(0, 512)])
export const isLocale = (s: string) => {
  try {
    return Intl.getCanonicalLocales(s).length === 1
  } catch {
    return false
  }
}
export const locale = string([isLocale, 'must be a language tag like "de" or "pt-BR"'])
