// The embedding's configuration: query parameters of the hosted page (or the iframe's URL).
// Checked without zod: every page parses its options before its first screen, and zod (the
// response schemas' library) then waits for the first request. The checks keep zod's semantics
// where the zod schemas had them: the first problem in field order, the rule's own words or
// "Invalid input", unknown fields dropped, an absent optional field left out.
import { optionsFromParams, paramsFromOptions } from './params'
import { carriesCredentials } from '../lib/credentials'
import { type Schema, array, boolean, check, number, object, oneOf, optional, string } from './check'

// No user name or password in it (lib/credentials.ts): a way to smuggle them, or to dress a phishing
// address up as a registered one.
const httpUrl = string([
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
const address = string([(s) => /^0x[0-9a-fA-F]{40}$/.test(s), 'must be an address'])
// The service's ids are opaque: 1 to 128 printable ASCII characters, no space (the stored account's bound, identity/storedChecks.ts).
const opaqueId = string([(s) => /^[\x21-\x7e]{1,128}$/.test(s)])
const int = (n: number) => Number.isSafeInteger(n)
const positive = (n: number) => n > 0
const between = (min: number, max: number) => (n: number) => n >= min && n <= max
const length = (min: number, max = Infinity) => (s: { length: number }) => s.length >= min && s.length <= max

export type ChainConfig = {
  id: number
  name: string
  rpcUrl?: string
  explorerUrl?: string
  nativeSymbol?: string
  /** Spenders an approval may name besides the deposit's own target (the quote guard's allowlist). */
  routers?: string[]
}
const chain = object({
  id: number([int], [positive]),
  name: string([length(1)]),
  rpcUrl: optional(httpUrl),
  explorerUrl: optional(httpUrl),
  nativeSymbol: optional(string()),
  routers: optional(array(address)),
})

export type TokenConfig = { chainId: number; token: string; symbol: string; decimals: number }
const tokenShape = {
  chainId: number([int], [positive]),
  token: address,
  // zod's minLength then maxLength: two checks, each "Invalid input".
  symbol: string([length(1)], [length(0, 12)]),
  decimals: number([int], [between(0, Infinity)], [between(-Infinity, 36)]),
}
const token = object(tokenShape)

export type DestinationConfig = TokenConfig & { address?: string }
const destination = object({ ...tokenShape, address: optional(address) })

export const flows = ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout'] as const
export type Flow = (typeof flows)[number]
/**
 * The flows offered where the registry entry or the options name none: in production every flow
 * but the virtual account (onboarding), which no production account stands behind yet
 * (partner-api.md); in the sandbox all of them.
 */
export const defaultFlows = (sandbox: boolean): Flow[] => flows.filter((f) => sandbox || f !== 'onboarding')

export const themes = ['light', 'dark', 'auto'] as const
/**
 * What each flow needs besides the service: the partner-path flows the partner backend, the bank
 * flows the identity page. parseOptions refuses a flow without them (with words of its own); the
 * start screen offers only the flows that have them; the page draws a first screen only for them.
 */
export const FLOW_NEEDS: Record<Flow, ReadonlyArray<'partnerBase' | 'identityUrl'>> = {
  deposit: [],
  card: ['partnerBase'],
  onboarding: ['identityUrl'],
  bankDeposit: ['partnerBase', 'identityUrl'],
  payout: ['partnerBase', 'identityUrl'],
  cardPayout: ['partnerBase', 'identityUrl'],
}
/** The theme where the options name none. */
export const DEFAULT_THEME = 'light'
/** The card's currencies where the options name none (the hosted page's first screen is drawn with them). */
export const DEFAULT_CURRENCIES = ['EUR', 'USD', 'GBP'] as const
export type Theme = (typeof themes)[number]

export type Brand = { color?: string; radius?: number; font?: string }
const cssColor = string([(s) => /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(s), 'must be a hex colour like #1d4ed8'])
const brand = object({
  color: optional(cssColor),
  radius: optional(number([between(0, Infinity)], [between(-Infinity, 32)])),
  font: optional(string([(s) => /^[\w\s,'"-]{1,120}$/.test(s), 'must be a font-family list'])),
})

// A prefilled amount: a decimal string of at most 20 digits and 18 decimals (no amount anyone pays is longer).
const decimalString = string([(s) => /^\d{1,20}(?:\.\d{1,18})?$/.test(s), 'must be a decimal string (at most 20 digits and 18 decimals)'])
const authCode = string([length(1)], [length(0, 512)])
const isLocale = (s: string) => {
  try {
    return Intl.getCanonicalLocales(s).length === 1
  } catch {
    return false
  }
}
const locale = string([isLocale, 'must be a language tag like "de" or "pt-BR"'])

const ms = optional(number([int], [between(50, Infinity)], [between(-Infinity, 600_000)]))
/** Shorter timers, from a sandbox registry entry only (a production build ignores them). */
export type Timings = { pollMs?: number; dropCheckMs?: number; kycRecheckMs?: number; bankPollMs?: number; backoffBaseMs?: number }
const timings = object({ pollMs: ms, dropCheckMs: ms, kycRecheckMs: ms, bankPollMs: ms, backoffBaseMs: ms })

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
  theme: oneOf(themes),
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
})

const defaultChains: ChainConfig[] = [
  { id: 8453, name: 'Base', rpcUrl: 'https://mainnet.base.org', explorerUrl: 'https://basescan.org', nativeSymbol: 'ETH' },
  { id: 42161, name: 'Arbitrum', rpcUrl: 'https://arb1.arbitrum.io/rpc', explorerUrl: 'https://arbiscan.io', nativeSymbol: 'ETH' },
]
const defaultSources: TokenConfig[] = [
  { chainId: 8453, token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
]
const arbitrumUsdc: TokenConfig = {
  chainId: 42161,
  token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  symbol: 'USDC',
  decimals: 6,
}

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

const liveShape = {
  theme: optional(oneOf(themes)),
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

export function readConfig(search: string, navigatorLanguage = 'en'): ConfigResult {
  return parseOptions(optionsFromParams(new URLSearchParams(search)), navigatorLanguage)
}

export { optionsFromParams, paramsFromOptions }

function mergeChains(given: ChainConfig[]): ChainConfig[] {
  const ids = new Set(given.map((c) => c?.id))
  return [...given, ...defaultChains.filter((c) => !ids.has(c.id))]
}

export function isSandboxApi(apiBase: string): boolean {
  try {
    const host = new URL(apiBase).hostname
    return host === 'localhost' || host === '127.0.0.1' || host === '[::1]' || /(^|\.)sandbox\./.test(host)
  } catch {
    return false
  }
}

export function chainOf(config: WidgetConfig, id: number): ChainConfig {
  return config.chains.find((c) => c.id === id) ?? { id, name: `Chain ${id}` }
}

export function explorerTxUrl(chain: ChainConfig, hash: string): string | undefined {
  return chain.explorerUrl ? `${chain.explorerUrl.replace(/\/+$/, '')}/tx/${hash}` : undefined
}
