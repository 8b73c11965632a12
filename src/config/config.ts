// The embedding's configuration: query parameters of the hosted page (or the iframe's URL).
// Checked without zod: every page parses its options before its first screen, and zod (the
// response schemas' library) then waits for the first request. The checks keep zod's semantics
// where the zod schemas had them: the first problem in field order, the rule's own words or
// "Invalid input", unknown fields dropped, an absent optional field left out.
import { optionsFromParams, paramsFromOptions } from './params'
import { type Schema, array, boolean, check, number, object, oneOf, optional, string } from './check'
import {
  type ChainConfig,
  type DestinationConfig,
  type TokenConfig,
  arbitrumUsdc,
  chain,
  defaultChains,
  defaultSources,
  destination,
  mergeChains,
  token,
} from './chains'
import { address, authCode, between, decimalString, httpUrl, int, isLocale, length, locale, opaqueId } from './fields'
import { type Flow, FLOW_NEEDS, defaultFlows, flows } from './flows'
import { type Brand, type Theme, DEFAULT_THEME, brand, theme } from './look'
import type { RouteDefaults } from '../lib/routeDefaults'

export { type ChainConfig, type DestinationConfig, type TokenConfig, chainOf, explorerTxUrl } from './chains'
export { type Flow, FLOW_NEEDS, defaultFlows, flows } from './flows'
export { type Brand, type Theme, DEFAULT_THEME, themes } from './look'

/** The card's currencies where the options name none (the hosted page's first screen is drawn with them). */
export const DEFAULT_CURRENCIES = ['EUR', 'USD', 'GBP'] as const

const ms = optional(number([int], [between(50, Infinity)], [between(-Infinity, 600_000)]))
/** Shorter timers, from a sandbox registry entry only (a production build ignores them). */
export type Timings = { pollMs?: number; dropCheckMs?: number; kycRecheckMs?: number; bankPollMs?: number; backoffBaseMs?: number }
const timings = object({ pollMs: ms, dropCheckMs: ms, kycRecheckMs: ms, bankPollMs: ms, backoffBaseMs: ms })
// Codes the registry's build checks (scripts/registry.mjs); a code no route serves is never taken (lib/routeDefaults.ts).
const routeDefaults = object({ currency: optional(string()), country: optional(string()) })

export type WidgetConfig = {
  flow?: Flow
  /** The flows offered: the start screen lists these (those whose FLOW_NEEDS are met). */
  flows: Flow[]
  theme: Theme
  brand: Brand
  /** Prefilled amount; `lockAmount` makes it read-only. */
  amount?: string
  lockAmount: boolean
  /** The partner's own reference, echoed in every event. */
  reference?: string
  /** Where the hosted page sends the buyer at the end. */
  returnUrl?: string
  apiBase: string
  sandbox: boolean
  locale: string
  chains: ChainConfig[]
  sources: TokenConfig[]
  destination?: DestinationConfig
  /** Shown for the default destination (the service's Arbitrum settlement), not sent. */
  defaultDestination: TokenConfig
  /** The partner's backend for the card calls that need its API key. */
  partnerBase?: string
  /** Sent to the partner backend as `Authorization: Bearer …`: how it knows its own user. */
  partnerToken?: string
  /** The partner opts into sending its cookies to its backend (off by default). */
  partnerCookies: boolean
  /**
   * The partner's backend links wallets (the kit with `chains`): the deposit asks it before the first
   * send, and does not send without its answer. Off, it is never asked. The registry's word (or, in
   * script mode, the page's), never guessed from how the backend answers.
   */
  walletLink: boolean
  fiatCurrencies: string[]
  /** Hosts the card page may be on (`host` or `host:port`). */
  cardHosts: string[]
  /** The crypto asset asked for when reading card limits; without it, the asset of the first quote. */
  cardCrypto?: string
  walletAddress?: string
  /**
   * A returning buyer the partner's server vouches for (signed only, with `walletAddress`): the ids
   * /fiat/onboard returned for that wallet. The bank flows start with this buyer, no identity steps.
   */
  accountId?: string
  walletId?: string
  /** The identity provider's page; it returns to this page with `authCode`. */
  identityUrl?: string
  authCode?: string
  /** The only origin messages go to, and come from, when the widget is framed. */
  parentOrigin?: string
  timings?: Timings
  /** The registry's: where the first screens start (lib/routeDefaults.ts), each only where a route serves it. */
  defaults?: RouteDefaults
  /**
   * Not an option: whose stored records these are, with apiBase (storage/safeStorage.ts). A hosted
   * page or frame has it from the registry entry its link names (config/link.ts resolveLink); a
   * partner's own page (script mode) has none, as that origin's storage is the partner's own.
   */
  partner?: string
}
// The fields in this order: the first problem named is the first field's, as with the zod schema.
const config: Schema<WidgetConfig> = object({
  flow: optional(oneOf(flows)),
  flows: array(oneOf(flows), 1),
  theme,
  brand,
  amount: optional(decimalString),
  lockAmount: boolean,
  reference: optional(string([length(0, 64)])),
  returnUrl: optional(httpUrl),
  apiBase: httpUrl,
  sandbox: boolean,
  locale,
  chains: array(chain, 1),
  sources: array(token, 1),
  destination: optional(destination),
  defaultDestination: token,
  partnerBase: optional(httpUrl),
  partnerToken: optional(string([length(1)], [length(0, 2048)])),
  partnerCookies: boolean,
  walletLink: boolean,
  fiatCurrencies: array(string([(s) => /^[A-Z]{3}$/.test(s), 'must be ISO 4217 codes']), 1),
  cardHosts: array(string([length(1)])),
  cardCrypto: optional(string([length(1)])),
  walletAddress: optional(address),
  accountId: optional(opaqueId),
  walletId: optional(opaqueId),
  identityUrl: optional(httpUrl),
  authCode: optional(authCode),
  parentOrigin: optional(string([(s) => /^https?:\/\/[^/]+$/.test(s), 'must be an origin like https://partner.example'])),
  timings: optional(timings),
  defaults: optional(routeDefaults),
})

export type ConfigResult = { ok: true; config: WidgetConfig } | { ok: false; problem: string }

/**
 * The embedding's options as a partner writes them (script tag, npm, custom element) or as query
 * parameters carry them (hosted page, iframe). Everything optional but `apiBase`.
 */
export type WidgetOptions = {
  flow?: Flow
  flows?: Flow[]
  apiBase: string
  partnerBase?: string
  partnerToken?: string
  partnerCookies?: boolean
  walletLink?: boolean
  sandbox?: boolean
  locale?: string
  theme?: Theme
  brand?: Brand
  chains?: ChainConfig[]
  sources?: TokenConfig[]
  destination?: DestinationConfig
  currencies?: string[]
  cardHosts?: string[]
  cardCrypto?: string
  walletAddress?: string
  accountId?: string
  walletId?: string
  amount?: string
  lockAmount?: boolean
  identityUrl?: string
  authCode?: string
  parentOrigin?: string
  reference?: string
  returnUrl?: string
  defaults?: RouteDefaults
}

export function parseOptions(options: Partial<Record<keyof WidgetOptions | 'timings', unknown>>, navigatorLanguage = 'en'): ConfigResult {
  const apiBase = typeof options.apiBase === 'string' ? options.apiBase : ''
  const chains = options.chains
  const candidate = {
    flow: options.flow,
    flows: options.flows ?? defaultFlows(__SANDBOX_BUILD__),
    apiBase,
    // A build mode, not a URL switch: a production build never turns the sandbox on.
    sandbox: __SANDBOX_BUILD__ && (options.sandbox === true || isSandboxApi(apiBase)),
    // The option, then the browser's language, then English.
    locale: options.locale ?? (isLocale(navigatorLanguage) ? navigatorLanguage : 'en'),
    theme: options.theme ?? DEFAULT_THEME,
    brand: options.brand ?? {},
    chains: Array.isArray(chains) ? mergeChains(chains) : (chains ?? defaultChains),
    sources: options.sources ?? defaultSources,
    destination: options.destination,
    defaultDestination: arbitrumUsdc,
    partnerBase: options.partnerBase,
    partnerToken: options.partnerToken,
    partnerCookies: options.partnerCookies === true,
    walletLink: options.walletLink === true,
    fiatCurrencies: options.currencies ?? [...DEFAULT_CURRENCIES],
    cardHosts: options.cardHosts ?? [],
    // No default asset: the contract says to read it (the sandbox settles in ETH).
    cardCrypto: options.cardCrypto,
    walletAddress: options.walletAddress,
    accountId: options.accountId,
    walletId: options.walletId,
    amount: options.amount,
    lockAmount: options.lockAmount ?? false,
    identityUrl: options.identityUrl,
    authCode: options.authCode,
    parentOrigin: options.parentOrigin,
    reference: options.reference,
    returnUrl: options.returnUrl,
    // Only a sandbox registry entry carries them (resolveLink), and only a sandbox build reads them.
    timings: __SANDBOX_BUILD__ ? options.timings : undefined,
    ...(options.defaults ? { defaults: options.defaults } : {}),
  }
  const parsed = check(config, candidate)
  if (!parsed.success) {
    const issue = parsed.issue
    return { ok: false, problem: `${issue.path.join('.') || 'configuration'}: ${issue.message}` }
  }
  const buyer = buyerProblem(parsed.data)
  if (buyer) return { ok: false, problem: buyer }
  // A flow the partner offers, with what it needs (FLOW_NEEDS: the partner backend, the identity page).
  const { flow } = parsed.data
  const problem = flow && (parsed.data.flows.includes(flow) ? FLOW_NEEDS[flow].find((need) => !parsed.data[need]) : 'flow')
  if (problem) return { ok: false, problem: `${problem}: ${problem === 'flow' ? 'not offered (flows)' : `required for the ${flow} flow`}` }
  // "My backend links wallets" names a backend: without one the deposit would ask no one and send
  // unlinked (the registry's build refuses such an entry; a script-mode page's options likewise).
  if (parsed.data.walletLink && !parsed.data.partnerBase) return { ok: false, problem: 'partnerBase: required for walletLink' }
  return { ok: true, config: parsed.data }
}

/**
 * A known buyer is the three together: the ids /fiat/onboard returned and the wallet they were made
 * for (identity/account.ts BuyerAccount). Half of one names no buyer: the problem, or none.
 */
export function buyerProblem(options: Record<string, unknown>): string | undefined {
  const missing = (options.accountId ?? options.walletId) !== undefined && ['accountId', 'walletId', 'walletAddress'].find((k) => options[k] === undefined)
  return missing ? `${missing}: required for a known buyer` : undefined
}

export function readConfig(search: string, navigatorLanguage = 'en'): ConfigResult {
  return parseOptions(optionsFromParams(new URLSearchParams(search)), navigatorLanguage)
}

export { optionsFromParams, paramsFromOptions }

export function isSandboxApi(apiBase: string): boolean {
  try {
    const host = new URL(apiBase).hostname
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || /(^|\.)sandbox\./.test(host)
  } catch {
    return false
  }
}
