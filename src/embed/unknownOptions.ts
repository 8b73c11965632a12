// The options a partner's page may set (script tag, element, npm package), and the console error that
// names any other: mount.tsx checks them, as only partners' pages write options by hand (a link's are
// checked by config/link.ts), so the hosted and iframe pages' first load does without this list.
import type { WidgetOptions } from '../config/config'

// Every option, checked by the compiler against WidgetOptions (a new option must be added here).
const KNOWN = Object.keys({
  flow: 1,
  flows: 1,
  apiBase: 1,
  partnerBase: 1,
  partnerToken: 1,
  partnerCookies: 1,
  walletLink: 1,
  sandbox: 1,
  locale: 1,
  theme: 1,
  brand: 1,
  chains: 1,
  sources: 1,
  destination: 1,
  currencies: 1,
  cardHosts: 1,
  cardCrypto: 1,
  walletAddress: 1,
  accountId: 1,
  walletId: 1,
  amount: 1,
  lockAmount: 1,
  identityUrl: 1,
  authCode: 1,
  parentOrigin: 1,
  reference: 1,
  returnUrl: 1,
  defaults: 1,
  closable: 1,
  history: 1,
} satisfies Record<keyof WidgetOptions | 'closable' | 'history', 1>)

/** On a partner page a misspelt option would otherwise vanish without a word: each is a console error. */
export function warnUnknown(options: Record<string, unknown>) {
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key) && !/^(aria|role$|title$|hidden$|lang$|dir$|tabindex$|slot$|part$)/i.test(key)) {
      console.error(`[stablecoin-widget] ${key}: not an option; ignored`)
    }
  }
}
