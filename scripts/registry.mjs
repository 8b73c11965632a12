// The operator's partner registry (`npm run build -- --partners FILE`): who the partners are, and
// for each where its money, card details and identity go. Checked here at build time; a bad file
// stops the build naming the entry and the field. The hosted page and the iframe take these values
// from the registry only, never from their URL (../shared/SECURITY.md).
import { z } from 'zod'

const ID = /^[a-z0-9-]{3,40}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const B64URL_32 = /^[A-Za-z0-9_-]{43}$/

function parsedUrl(s) {
  try {
    return new URL(s)
  } catch {
    return undefined
  }
}

const url = z.string().refine((s) => ['http:', 'https:'].includes(parsedUrl(s)?.protocol ?? ''), 'must be an http(s) address')
const origin = z.string().refine((s) => {
  const u = parsedUrl(s)
  return !!u && ['http:', 'https:'].includes(u.protocol) && u.origin === s
}, 'must be an origin like https://shop.example (scheme, host and port only)')
const host = z.string().regex(/^[a-z0-9.-]+(?::\d{1,5})?$/i, 'must be a host, or host:port')
const address = z.string().regex(ADDRESS, 'must be a 0x address of 40 hex digits')

/** WalletConnect's own relay (where a registry entry names none) and Verify, whose frame attests the page's origin. */
export const WALLETCONNECT_RELAY = 'wss://relay.walletconnect.org'
export const WALLETCONNECT_VERIFY = 'https://verify.walletconnect.org'
// wss: anywhere; ws: only to this machine, and only in a sandbox entry (checked in parseRegistry).
const RELAY_WSS = /^wss:\/\/[\w.-]+(:\d+)?(\/[\w./-]*)?$/
const RELAY_LOOPBACK = /^ws:\/\/127\.0\.0\.1(:\d+)?\/?$/

const chain = z
  .object({
    id: z.number().int().positive(),
    name: z.string().min(1),
    rpcUrl: url.optional(),
    explorerUrl: url.optional(),
    nativeSymbol: z.string().min(1).max(12).optional(),
    routers: z.array(address).optional(),
  })
  .strict()
const token = z
  .object({
    chainId: z.number().int().positive(),
    token: address,
    symbol: z.string().min(1).max(12),
    decimals: z.number().int().min(0).max(36),
  })
  .strict()
const publicKey = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().regex(B64URL_32), y: z.string().regex(B64URL_32) })
  .passthrough()
  .refine((k) => !('d' in k), 'holds a private key (d): publish only the public part')
  .transform(({ kty, crv, x, y }) => ({ kty, crv, x, y }))

/** The widget's flows (src/config/config.ts `flows`, which a unit test holds this list to). */
export const FLOW_NAMES = ['deposit', 'card', 'onboarding', 'bankDeposit', 'payout', 'cardPayout']

export const entrySchema = z
  .object({
    id: z.string().regex(ID, 'must be 3 to 40 of a-z, 0-9 and -'),
    environment: z.enum(['production', 'sandbox']),
    apiBase: url,
    partnerBase: url.optional(),
    // The partner's backend links wallets (POST /deposit/wallet): its kit runs with `chains`. The
    // deposit then asks it before the first send and sends nothing without its answer; without it,
    // the deposit never asks (docs/partner-kit.md).
    walletLink: z.boolean().optional(),
    cardHosts: z.array(host),
    identityUrl: url.optional(),
    chains: z.array(chain).min(1),
    sources: z.array(token).min(1),
    destination: token.extend({ address: address.optional() }).strict().optional(),
    parentOrigins: z.array(origin),
    returnOrigins: z.array(origin),
    publicKey: publicKey.optional(),
    // The flows the partner offers. Without it, the build mode's default (src/config/config.ts
    // defaultFlows): in production every flow but the virtual account, in the sandbox all of them.
    flows: z.array(z.enum(FLOW_NAMES)).min(1).optional(),
    // WalletConnect (docs/wallets.md): the partner's project id on WalletConnect's cloud, and a relay
    // of its own (wss:, or ws://127.0.0.1 in a sandbox entry). Without it, WalletConnect is not offered.
    walletConnect: z
      .object({
        projectId: z.string().regex(/^[\w-]{1,64}$/, 'must be 1 to 64 of A-Z, a-z, 0-9, _ and -'),
        relayUrl: z
          .string()
          .refine((s) => RELAY_WSS.test(s) || RELAY_LOOPBACK.test(s), 'must be a wss:// address (ws://127.0.0.1 in a sandbox entry), without a query')
          .optional(),
      })
      .strict()
      .optional(),
    // Sandbox entries only: shorter timers, so tests wait for conditions, not production timers.
    timings: z
      .object(
        Object.fromEntries(
          ['pollMs', 'dropCheckMs', 'kycRecheckMs', 'bankPollMs', 'backoffBaseMs'].map((k) => [k, z.number().int().min(50).max(600_000).optional()]),
        ),
      )
      .strict()
      .optional(),
    // Where the first screens start (src/lib/routeDefaults.ts): the partner's usual currency and
    // country, each taken only where a route serves it; else the browser's region, else the first route.
    defaults: z
      .object({
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like "EUR"')
          .optional(),
        country: z
          .string()
          .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code like "DE"')
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict()

/** Every URL and origin of an entry, with the path to name it by. */
function addressesOf(entry) {
  const out = [['apiBase', entry.apiBase]]
  if (entry.partnerBase) out.push(['partnerBase', entry.partnerBase])
  if (entry.identityUrl) out.push(['identityUrl', entry.identityUrl])
  entry.chains.forEach((c, i) => {
    if (c.rpcUrl) out.push([`chains.${i}.rpcUrl`, c.rpcUrl])
    if (c.explorerUrl) out.push([`chains.${i}.explorerUrl`, c.explorerUrl])
  })
  entry.parentOrigins.forEach((o, i) => out.push([`parentOrigins.${i}`, o]))
  entry.returnOrigins.forEach((o, i) => out.push([`returnOrigins.${i}`, o]))
  return out
}

export class RegistryError extends Error {}

/** The registry file's entries, checked; throws a RegistryError naming the entry and the field. */
export function parseRegistry(data, file = 'partners') {
  if (!Array.isArray(data)) throw new RegistryError(`${file}: must be a JSON array of partner entries`)
  const seen = new Set()
  const entries = data.map((raw, index) => {
    const name = `${file}: entry ${index}${raw && typeof raw.id === 'string' ? ` ("${raw.id}")` : ''}`
    const parsed = entrySchema.safeParse(raw)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new RegistryError(`${name}: ${issue.path.join('.') || 'entry'}: ${issue.message}`)
    }
    const entry = parsed.data
    if (seen.has(entry.id)) throw new RegistryError(`${name}: id: "${entry.id}" appears twice`)
    seen.add(entry.id)
    const twice = entry.flows?.find((flow, i) => entry.flows.indexOf(flow) !== i)
    if (twice) throw new RegistryError(`${name}: flows: "${twice}" appears twice`)
    if (entry.walletLink && !entry.partnerBase) throw new RegistryError(`${name}: walletLink: needs partnerBase (the backend that links wallets)`)
    if (entry.environment !== 'sandbox' && entry.timings) throw new RegistryError(`${name}: timings: only sandbox entries may shorten the timers`)
    const relayUrl = entry.walletConnect?.relayUrl
    if (entry.environment !== 'sandbox' && relayUrl && !RELAY_WSS.test(relayUrl))
      throw new RegistryError(`${name}: walletConnect.relayUrl: must be wss: outside sandbox entries (${relayUrl})`)
    if (entry.environment !== 'sandbox') {
      for (const [path, value] of addressesOf(entry)) {
        if (new URL(value).protocol !== 'https:') throw new RegistryError(`${name}: ${path}: must be https: outside sandbox entries (${value})`)
      }
    }
    return entry
  })
  const environments = new Set(entries.map((e) => e.environment))
  if (environments.size > 1) {
    throw new RegistryError(`${file}: mixes production and sandbox entries; build them separately (a production build holds no sandbox code)`)
  }
  return entries
}

/**
 * What the build says but does not stop on: an entry with a partner backend that offers the crypto
 * deposit (its flows, or the default ones, which hold it) and does not say walletLink. Its deposits
 * are sent without asking the backend to link the wallet; a kit that runs with chains then refuses
 * to record them (the widget says so: the page's error event, the console). Not required: entries
 * written before walletLink existed, for backends that read no deposits, build as they did.
 */
export function registryWarnings(entries, file = 'partners') {
  return entries.flatMap((entry, index) =>
    entry.partnerBase && entry.walletLink === undefined && (entry.flows ?? ['deposit']).includes('deposit')
      ? [
          `${file}: entry ${index} ("${entry.id}"): walletLink: not said. Its crypto deposits are sent without asking ${entry.partnerBase} to link the wallet, ` +
            'and a partner kit that runs with chains refuses to record them (403 wallet_not_linked). Say walletLink: true if it does, walletLink: false if not',
        ]
      : [],
  )
}

/** Whether a registry is built as a sandbox build (sandbox wallet, badge, http on loopback). */
export const isSandboxRegistry = (entries) => entries.some((e) => e.environment === 'sandbox')

/** The strict policy of the hosted pages, narrowed to the given partners' hosts. */
export function policyFor(entries, frameAncestors, scriptHashes = [], styleHashes = []) {
  const originOf = (u) => new URL(u).origin
  const connect = new Set()
  const frames = new Set()
  for (const e of entries) {
    connect.add(originOf(e.apiBase))
    if (e.partnerBase) connect.add(originOf(e.partnerBase))
    for (const c of e.chains) if (c.rpcUrl) connect.add(originOf(c.rpcUrl))
    // WalletConnect's relay (a WebSocket), and with WalletConnect's own relay its Verify frame
    // (src/wallet/walletConnect/client.ts keeps Verify there; a relay of the partner's own goes without).
    if (e.walletConnect) connect.add(originOf(e.walletConnect.relayUrl ?? WALLETCONNECT_RELAY))
    if (e.walletConnect && !e.walletConnect.relayUrl) frames.add(WALLETCONNECT_VERIFY)
  }
  return [
    "default-src 'none'",
    // The pages' inline scripts (the flow's modulepreloads, the first screen) and their stylesheet
    // (the first screen is drawn before any module runs), each by its hash: never 'unsafe-inline'.
    `script-src 'self'${scriptHashes.map((h) => ` '${h}'`).join('')}`,
    `style-src 'self'${styleHashes.map((h) => ` '${h}'`).join('')}`,
    "img-src 'self' data:",
    `connect-src 'self'${[...connect].map((o) => ` ${o}`).join('')}`,
    ...(frames.size ? [`frame-src ${[...frames].join(' ')}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ')
}

/** `_headers` (the path + indented headers format many static hosts read) for the hosted pages. */
export function headersFile(entries, scriptHashes = [], styleHashes = []) {
  const policy = (es, ancestors) => policyFor(es, ancestors, scriptHashes, styleHashes)
  const block = (path, csp) =>
    [
      path,
      `  Content-Security-Policy: ${csp}`,
      '  X-Content-Type-Options: nosniff',
      '  Referrer-Policy: strict-origin-when-cross-origin',
      '  Permissions-Policy: payment=(self), camera=(), microphone=(), geolocation=()',
      '',
    ].join('\n')
  const allParents = [...new Set(entries.flatMap((e) => e.parentOrigins))]
  const blocks = [
    '# Written by scripts/build.mjs from the partner registry. The hosted page is never framed;',
    '# the iframe page only by the registered parentOrigins (one folder per partner: /p/<id>/).',
    '',
    block('/', policy(entries, [])),
    block('/index.html', policy(entries, [])),
    block('/embed.html', policy(entries, allParents)),
    // Hosts that serve pages without their extension (pretty URLs) get the same policy there.
    block('/embed', policy(entries, allParents)),
  ]
  for (const e of entries) {
    blocks.push(
      block(`/p/${e.id}/`, policy([e], [])),
      block(`/p/${e.id}/index.html`, policy([e], [])),
      block(`/p/${e.id}/embed.html`, policy([e], e.parentOrigins)),
      block(`/p/${e.id}/embed`, policy([e], e.parentOrigins)),
    )
  }
  blocks.push(['/assets/*', '  Cache-Control: public, max-age=31536000, immutable', '  X-Content-Type-Options: nosniff', ''].join('\n'))
  return `${blocks.join('\n')}`
}
