// The hosted page's and the iframe's options: the partner's entry from the operator's registry
// (inlined into the page at build time, so reading it costs no round trip), plus what the link may
// say. Options come in three kinds (../shared/SECURITY.md):
// - registry only: where money, card details and identity go; a link carrying one does not start;
// - signed only: per-link options the partner's server vouches for with its signature;
// - buyer-facing: flow, amount, locale, theme… which any link may set.
import { type ChainConfig, type DestinationConfig, type Flow, type Timings, type TokenConfig, buyerProblem, defaultFlows } from './config'
import { type RawOptions, optionsFromParams } from './params'
import { type PublicJwk, verifySignedQuery } from './signedLink'
import { carriesCredentials } from '../lib/credentials'
import type { RouteDefaults } from '../lib/routeDefaults'

export type RegistryEntry = {
  id: string
  environment: 'production' | 'sandbox'
  apiBase: string
  partnerBase?: string
  /** The partner's backend links wallets before a crypto deposit (its kit runs with `chains`); needs partnerBase. */
  walletLink?: boolean
  cardHosts: string[]
  identityUrl?: string
  chains: ChainConfig[]
  sources: TokenConfig[]
  destination?: DestinationConfig
  parentOrigins: string[]
  returnOrigins: string[]
  publicKey?: PublicJwk
  /** The flows the partner offers; without it, config.ts defaultFlows for the entry's environment. */
  flows?: Flow[]
  /** Sandbox entries only (the build refuses it elsewhere): shorter timers for tests. */
  timings?: Timings
  /** WalletConnect is offered only with it (wallet/walletConnect.ts reads it where it is used). */
  walletConnect?: WalletConnectConfig
  /** Where the first screens start: the partner's usual currency and country (lib/routeDefaults.ts). */
  defaults?: RouteDefaults
}

/** The partner's project on WalletConnect's cloud, and a relay of its own instead of WalletConnect's. */
export type WalletConnectConfig = { projectId: string; relayUrl?: string }

/** Never from a URL: a link that carries one of these is a mistake or an attack. */
export const REGISTRY_ONLY = [
  'apiBase',
  'partnerBase',
  'cardHosts',
  'identityUrl',
  'chains',
  'sources',
  'sandbox',
  'destination',
  'routers',
  'partnerCookies',
  'walletLink',
  'timings',
  'flows',
  'walletConnect',
  'defaults',
] as const
/**
 * From a URL only under the partner's valid signature. Those from `reference` on act for someone (an
 * order, a session, a verified buyer): a link carrying one must expire (EXPIRING).
 */
export const SIGNED_ONLY = ['walletAddress', 'destinationAddress', 'reference', 'partnerToken', 'accountId', 'walletId'] as const
const EXPIRING = SIGNED_ONLY.slice(2)
/** What any link may choose. */
export const BUYER_FACING = [
  'flow',
  'locale',
  'theme',
  'brand',
  'amount',
  'lockAmount',
  'currencies',
  'cardCrypto',
  'authCode',
  'parentOrigin',
  'returnUrl',
] as const
/** Pairs of a link that are not options: whose link, its signature, and the card page's way back (read by the card payout itself). */
const LINK_ONLY = ['partner', 'signature', 'expires', 'cardSession', 'result']

export const REGISTRY_ELEMENT_ID = 'stablecoin-widget-partners'

export type LinkProblem = {
  ok: false
  /** `invalid_link`: no such partner, or a flow it does not offer; `forbidden_option`: a registry-only option; `bad_signature`: missing, bad or expired. */
  code: 'invalid_link' | 'forbidden_option' | 'bad_signature'
  /** For the console: names the parameter or the reason. */
  detail: string
  /** The partner, when the link named a registered one (its frame parent may hear the error). */
  entry?: RegistryEntry
}
export type LinkResult = { ok: true; entry: RegistryEntry; options: RawOptions } | LinkProblem

/** The registry the build inlined into this page (`<script type="application/json" id=…>`). */
export function readRegistry(doc: Document): RegistryEntry[] {
  const text = doc.getElementById(REGISTRY_ELEMENT_ID)?.textContent
  if (!text) return []
  try {
    const data: unknown = JSON.parse(text)
    return Array.isArray(data) ? (data as RegistryEntry[]) : []
  } catch {
    return []
  }
}

/** The URL's origin; none for a URL that carries a user name or password (never a registered one). */
const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url)
    return carriesCredentials(parsed, url) ? undefined : parsed.origin
  } catch {
    return undefined
  }
}

/** The options of a hosted-page or iframe link (`search` exactly as the browser has it). */
export async function resolveLink(search: string, registry: readonly RegistryEntry[], now = Date.now()): Promise<LinkResult> {
  const params = new URLSearchParams(search)
  const id = params.get('partner')
  const entry = id ? registry.find((e) => e.id === id) : undefined
  if (!entry) return { ok: false, code: 'invalid_link', detail: id ? `partner: "${id}" is not a registered partner` : 'partner: missing' }

  const keys = [...params.keys()]
  const forbidden = keys.find((k) => (REGISTRY_ONLY as readonly string[]).includes(k))
  if (forbidden) return { ok: false, code: 'forbidden_option', detail: `${forbidden}: comes from the partner registry, never from a link`, entry }
  const repeated = keys.find((k, i) => keys.indexOf(k) !== i)
  if (repeated) return { ok: false, code: 'bad_signature', detail: `${repeated}: given twice`, entry }

  const raw = optionsFromParams(params)
  const returnOrigin = typeof raw.returnUrl === 'string' ? originOf(raw.returnUrl) : undefined
  const needs: string[] = SIGNED_ONLY.filter((k) => k in raw)
  if (raw.lockAmount === true && 'amount' in raw) needs.push('amount (locked)')
  if ('returnUrl' in raw && !(returnOrigin && entry.returnOrigins.includes(returnOrigin))) needs.push('returnUrl (outside the registered return origins)')
  const signed = params.has('signature') || params.has('expires')
  if (needs.length > 0 || signed) {
    if (!entry.publicKey) {
      return { ok: false, code: 'bad_signature', detail: `${needs[0] ?? 'signature'}: needs a signed link, and partner "${entry.id}" has no public key`, entry }
    }
    const check = await verifySignedQuery(search, entry.publicKey, now)
    // A bearer token, the partner's reference to an order, or a verified buyer, in a link that never
    // expires would work for whoever finds the link, for as long as the partner's session lasts.
    const reason = check.ok ? EXPIRING.some((k) => k in raw) && !check.expires && 'no expires' : check.reason
    if (reason) return { ok: false, code: 'bad_signature', detail: `signature: ${reason}${needs.length ? ` (the link sets ${needs.join(', ')})` : ''}`, entry }
  }
  const buyer = buyerProblem(raw)
  if (buyer) return { ok: false, code: 'invalid_link', detail: buyer, entry }
  if (typeof raw.parentOrigin === 'string' && !entry.parentOrigins.includes(raw.parentOrigin)) {
    return { ok: false, code: 'forbidden_option', detail: `parentOrigin: ${raw.parentOrigin} is not registered for partner "${entry.id}"`, entry }
  }
  const offered = entry.flows ?? defaultFlows(entry.environment === 'sandbox')
  if ('flow' in raw && !(offered as unknown[]).includes(raw.flow)) {
    return { ok: false, code: 'invalid_link', detail: `flow: ${raw.flow} is not offered by partner "${entry.id}"`, entry }
  }
  if ('destinationAddress' in raw && !entry.destination) {
    return { ok: false, code: 'forbidden_option', detail: `destinationAddress: partner "${entry.id}" has no destination in the registry`, entry }
  }

  const options: RawOptions = {}
  for (const key of [...BUYER_FACING, ...SIGNED_ONLY]) {
    if (key in raw && key !== 'destinationAddress') options[key] = raw[key]
  }
  for (const key of Object.keys(raw)) {
    if (!(key in options) && !LINK_ONLY.includes(key) && key !== 'destinationAddress')
      console.warn(`[stablecoin-widget] ${key}: not an option of a link; ignored`)
  }
  Object.assign(options, {
    apiBase: entry.apiBase,
    // Whose stored records (storage/safeStorage.ts): the entry's, never a link's.
    partner: entry.id,
    partnerBase: entry.partnerBase,
    walletLink: entry.walletLink === true,
    cardHosts: entry.cardHosts,
    identityUrl: entry.identityUrl,
    chains: entry.chains,
    sources: entry.sources,
    destination: entry.destination && {
      ...entry.destination,
      ...(typeof raw.destinationAddress === 'string' ? { address: raw.destinationAddress } : {}),
    },
    sandbox: entry.environment === 'sandbox',
    flows: offered,
    ...(entry.defaults ? { defaults: entry.defaults } : {}),
    ...(entry.environment === 'sandbox' && entry.timings ? { timings: entry.timings } : {}),
  })
  return { ok: true, entry, options }
}
