// The options' zod schemas as they were before src/config/check.ts (git show ddebe1d:src/config/config.ts),
// kept only as the oracle of the differential test (configCheck.test.ts): no src module imports it.
// The embedding's configuration: query parameters of the hosted page (or the iframe's URL).
import * as z from 'zod/mini'
import { address } from '../../../src/api/schemas-common'
import { optionsFromParams, paramsFromOptions } from '../../../src/config/params'
import { carriesCredentials } from '../../../src/lib/credentials'

const httpUrl = z.string().check(
  z.refine((s) => {
    try {
      const url = new URL(s)
      return ['http:', 'https:'].includes(url.protocol) && !carriesCredentials(url, s)
    } catch {
      return false
    }
  }, 'must be an http(s) address without a user name or password'),
)

const chain = z.object({
  id: z.number().check(z.int(), z.positive()),
  name: z.string().check(z.minLength(1)),
  rpcUrl: z.optional(httpUrl),
  explorerUrl: z.optional(httpUrl),
  nativeSymbol: z.optional(z.string()),
  /** Spenders an approval may name besides the deposit's own target (the quote guard's allowlist). */
  routers: z.optional(z.array(address)),
})
export type ChainConfig = z.infer<typeof chain>

const token = z.object({
  chainId: z.number().check(z.int(), z.positive()),
  token: address,
  symbol: z.string().check(z.minLength(1), z.maxLength(12)),
  decimals: z.number().check(z.int(), z.gte(0), z.lte(36)),
})
export type TokenConfig = z.infer<typeof token>

const destination = z.object({
  ...token.shape,
  address: z.optional(address),
})
export type DestinationConfig = z.infer<typeof destination>

export const flows = ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout'] as const
export type Flow = (typeof flows)[number]

export const themes = ['light', 'dark', 'auto'] as const
export type Theme = (typeof themes)[number]

const cssColor = z.string().check(z.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a hex colour like #1d4ed8'))
const brand = z.object({
  color: z.optional(cssColor),
  radius: z.optional(z.number().check(z.gte(0), z.lte(32))),
  font: z.optional(z.string().check(z.regex(/^[\w\s,'"-]{1,120}$/, 'must be a font-family list'))),
})
export type Brand = z.infer<typeof brand>

const decimalString = z.string().check(z.regex(/^\d{1,20}(?:\.\d{1,18})?$/, 'must be a decimal string (at most 20 digits and 18 decimals)'))
const authCode = z.string().check(z.minLength(1), z.maxLength(512))
const isLocale = (s: string) => {
  try {
    return Intl.getCanonicalLocales(s).length === 1
  } catch {
    return false
  }
}
const locale = z.string().check(z.refine(isLocale, 'must be a language tag like "de" or "pt-BR"'))

const ms = z.optional(z.number().check(z.int(), z.gte(50), z.lte(600_000)))
/** Shorter timers, from a sandbox registry entry only (a production build ignores them). */
const timings = z.object({ pollMs: ms, dropCheckMs: ms, kycRecheckMs: ms, bankPollMs: ms, backoffBaseMs: ms })
export type Timings = z.infer<typeof timings>

const config = z.object({
  flow: z.optional(z.enum(flows)),
  flows: z.array(z.enum(flows)).check(z.minLength(1)),
  theme: z.enum(themes),
  brand,
  /** Prefilled amount; `lockAmount` makes it read-only. */
  amount: z.optional(decimalString),
  lockAmount: z.boolean(),
  /** The partner's own reference, echoed in every event. */
  reference: z.optional(z.string().check(z.maxLength(64))),
  /** Where the hosted page sends the buyer at the end. */
  returnUrl: z.optional(httpUrl),
  apiBase: httpUrl,
  sandbox: z.boolean(),
  locale,
  chains: z.array(chain).check(z.minLength(1)),
  sources: z.array(token).check(z.minLength(1)),
  destination: z.optional(destination),
  /** Shown for the default destination (the service's Arbitrum settlement), not sent. */
  defaultDestination: token,
  /** The partner's backend for the card calls that need its API key. */
  partnerBase: z.optional(httpUrl),
  /** Sent to the partner backend as `Authorization: Bearer …`: how it knows its own user. */
  partnerToken: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  /** The partner opts into sending its cookies to its backend (off by default). */
  partnerCookies: z.boolean(),
  /** Added after the checker replaced these (issue 37): the partner's backend links wallets. */
  walletLink: z.boolean(),
  fiatCurrencies: z.array(z.string().check(z.regex(/^[A-Z]{3}$/, 'must be ISO 4217 codes'))).check(z.minLength(1)),
  /** Hosts the card page may be on (`host` or `host:port`). */
  cardHosts: z.array(z.string().check(z.minLength(1))),
  /** The crypto asset asked for when reading card limits; without it, the asset of the first quote. */
  cardCrypto: z.optional(z.string().check(z.minLength(1))),
  walletAddress: z.optional(address),
  accountId: z.optional(z.string().check(z.regex(/^[\x21-\x7e]{1,128}$/, 'Invalid input'))),
  walletId: z.optional(z.string().check(z.regex(/^[\x21-\x7e]{1,128}$/, 'Invalid input'))),
  /** The identity provider's page; it returns to this page with `authCode`. */
  identityUrl: z.optional(httpUrl),
  authCode: z.optional(authCode),
  /** The only origin messages go to, and come from, when the widget is framed. */
  parentOrigin: z.optional(z.string().check(z.regex(/^https?:\/\/[^/]+$/, 'must be an origin like https://partner.example'))),
  timings: z.optional(timings),
})
export type WidgetConfig = z.infer<typeof config>

const defaultChains: ChainConfig[] = [
  { id: 8453, name: 'Base', rpcUrl: 'https://mainnet.base.org', explorerUrl: 'https://basescan.org', nativeSymbol: 'ETH' },
  { id: 42161, name: 'Arbitrum', rpcUrl: 'https://arb1.arbitrum.io/rpc', explorerUrl: 'https://arbiscan.io', nativeSymbol: 'ETH' },
]
const defaultSources: TokenConfig[] = [{ chainId: 8453, token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 }]
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
    flows: options.flows ?? flows.filter((f) => __SANDBOX_BUILD__ || f !== 'onboarding'),
    apiBase,
    // A build mode, not a URL switch: a production build never turns the sandbox on.
    sandbox: __SANDBOX_BUILD__ && (options.sandbox === true || isSandboxApi(apiBase)),
    // The option, then the browser's language, then English.
    locale: options.locale ?? (isLocale(navigatorLanguage) ? navigatorLanguage : 'en'),
    theme: options.theme ?? 'light',
    brand: options.brand ?? {},
    chains: Array.isArray(chains) ? mergeChains(chains) : (chains ?? defaultChains),
    sources: options.sources ?? defaultSources,
    destination: options.destination,
    defaultDestination: arbitrumUsdc,
    partnerBase: options.partnerBase,
    partnerToken: options.partnerToken,
    partnerCookies: options.partnerCookies === true,
    walletLink: options.walletLink === true,
    fiatCurrencies: options.currencies ?? ['EUR', 'USD', 'GBP'],
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
  const parsed = config.safeParse(candidate)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { ok: false, problem: `${issue?.path.join('.') || 'configuration'}: ${issue?.message}` }
  }
  const { accountId, walletId, walletAddress } = parsed.data
  if (accountId !== undefined || walletId !== undefined) {
    const missing = accountId === undefined ? 'accountId' : walletId === undefined ? 'walletId' : walletAddress === undefined ? 'walletAddress' : undefined
    if (missing) return { ok: false, problem: `${missing}: required for a known buyer` }
  }
  if (parsed.data.flow && !parsed.data.flows.includes(parsed.data.flow)) {
    return { ok: false, problem: 'flow: not offered (flows)' }
  }
  if (parsed.data.flow === 'onboarding' && !parsed.data.identityUrl) {
    return { ok: false, problem: 'identityUrl: required for the onboarding flow' }
  }
  if (
    (parsed.data.flow === 'bankDeposit' || parsed.data.flow === 'payout' || parsed.data.flow === 'cardPayout') &&
    (!parsed.data.partnerBase || !parsed.data.identityUrl)
  ) {
    return { ok: false, problem: `${parsed.data.partnerBase ? 'identityUrl' : 'partnerBase'}: required for the ${parsed.data.flow} flow` }
  }
  if (parsed.data.flow === 'card' && !parsed.data.partnerBase) {
    return { ok: false, problem: 'partnerBase: required for the card flow' }
  }
  if (parsed.data.walletLink && !parsed.data.partnerBase) {
    return { ok: false, problem: 'partnerBase: required for walletLink' }
  }
  return { ok: true, config: parsed.data }
}

const live = z.object({
  theme: z.optional(z.enum(themes)),
  brand: z.optional(brand),
  locale: z.optional(locale),
  amount: z.optional(decimalString),
  authCode: z.optional(authCode),
})
export type LiveUpdate = z.infer<typeof live>

/** What `update()` may change without a remount, checked like the options at mount. */
export function parseLiveOptions(options: Record<string, unknown>): { ok: true; update: LiveUpdate } | { ok: false; problem: string } {
  const unknown = Object.keys(options).find((key) => !Object.hasOwn(live.def.shape, key) && options[key] !== undefined)
  if (unknown) return { ok: false, problem: `${unknown}: cannot change after mounting; mount the widget again with it` }
  const parsed = live.safeParse(options)
  if (parsed.success) return { ok: true, update: parsed.data }
  const issue = parsed.error.issues[0]
  return { ok: false, problem: `${issue?.path.join('.') || 'options'}: ${issue?.message}` }
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
