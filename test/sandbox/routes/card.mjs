// Card payment: the widget path's /card/quote, the partner path's /v1/card/* (API key), the
// partner backend at /partner/* (the kit stablecoin-widget/server, forwarding with the key as a
// real partner backend does), and a hosted card page stand-in at /card-page?id=…
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { formatUnits, parseEther, parseUnits } from 'viem'
import { z } from 'zod'
import { HttpError, invalid, parseBody } from '../http.mjs'
import { createPartnerDemo } from './partnerDemo.mjs'

// The sandbox is plain Node ESM: it runs the built kit. `npm start` starts the sandbox before it
// builds, so a fresh clone has no dist/server yet, and an edit under src/ leaves the one there stale:
// the kit is built on the spot then (about a second), by one sandbox process at a time (the
// end-to-end workers start theirs together). SANDBOX_PARTNER_KIT names another module to run
// instead (unit tests run the kit's source).
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const BUILT = join(ROOT, 'dist/server/index.js')

async function loadKit() {
  if (process.env.SANDBOX_PARTNER_KIT) return import(/* @vite-ignore */ process.env.SANDBOX_PARTNER_KIT)
  if (kitStale()) await underLock(join(ROOT, 'dist/.server-build-lock'), () => kitStale() && buildKit())
  return import('../../../dist/server/index.js')
}

/** dist/server/index.js is missing, or older than a source file the kit is built from (any under src/). */
function kitStale() {
  let built
  try {
    built = statSync(BUILT).mtimeMs
  } catch {
    return true
  }
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? newer(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs > built))
  return newer(join(ROOT, 'src'))
}

function buildKit() {
  console.warn('[sandbox] building the partner-backend kit (dist/server): it was missing or older than src/')
  const vite = ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--config', 'vite.server.config.ts']
  const built = spawnSync(process.execPath, vite, { cwd: ROOT, stdio: 'inherit' })
  if (built.status !== 0) throw new Error('[sandbox] could not build the partner-backend kit (dist/server/index.js)')
}

/** Runs `work` holding a lock directory (mkdir is atomic); another holder is waited for, one older than a minute taken over. */
async function underLock(lock, work) {
  mkdirSync(dirname(lock), { recursive: true })
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 60_000) rmSync(lock, { recursive: true, force: true })
      else await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
const kit = await loadKit()
/** The partner kit as the sandbox runs it (the example pages sign their links with its signWidgetUrl). */
export const partnerKit = kit

export const KEY = 'sk_sandbox_partner_key'
/** The user of partner-backend requests that carry no token (see the partner backend below). */
export const SANDBOX_BUYER = 'sandbox-buyer'
const ENV = 'sandbox'
// Fiat per ETH, in cents, and the per-currency card window (not proportional on purpose).
const MARKETS = {
  EUR: { rate: 300000n, min: '20', max: '5000', flatFee: 299n },
  USD: { rate: 320000n, min: '25', max: '6000', flatFee: 349n },
  GBP: { rate: 260000n, min: '15', max: '4000', flatFee: 249n },
}
const decimal = z.string().regex(/^\d+(\.\d{1,2})?$/, 'must be a decimal string with at most 2 decimals')
const quoteRequest = z.object({ fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'), fiatAmount: decimal })
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex digits')
const purchaseRequest = z.object({
  kycToken: z.string().min(1),
  fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'),
  fiatAmount: decimal,
  walletAddress: address,
  returnUrl: z.string().url('must be a URL'),
})

const cents = (v) => parseUnits(v, 2)
const fiat = (c) => formatUnits(c, 2)

/**
 * A card page address a hostile or broken service could answer instead of its own page (`kind`:
 * javascript, foreign, http, credentials, lookalike), for `page` (its path and query); undefined
 * for no kind. The widget must follow none of them.
 */
export function hostileCardUrl(kind, publicBase, page) {
  const host = new URL(publicBase).host
  switch (kind) {
    case 'javascript':
      return 'javascript:alert(document.domain)'
    case 'foreign':
      return `https://card-page.evil.example${page}`
    case 'http':
      return `http://card-page.example.com${page}`
    case 'credentials':
      return `${publicBase.replace('://', '://user:pass@')}${page}`
    case 'lookalike':
      return `https://${host.replace(/^127/, 'l27')}.evil.example${page}`
    default:
      return undefined
  }
}

export function cardRoutes({ chains, publicBase, allowedOrigins, partnerChains = {}, partnerDestination, demo }) {
  const defaults = {
    cardQuoteTtlSeconds: 60,
    cardPurchaseTtlSeconds: 600,
    cardProcessingMs: 1500,
    cardRedirect: undefined,
    cardOurFeeBps: 50n,
    // The usual CORS answer, without Allow-Credentials (the widget sends no cookies unless
    // `partnerCookies`): `partnerCredentials: true` allows them, `partnerToken` requires that token.
    partnerCredentials: false,
    partnerToken: undefined,
  }
  let settings = { ...defaults }
  const tokens = new Map()
  const purchases = new Map()

  function price(body) {
    const req = parseBody(quoteRequest, body)
    const market = MARKETS[req.fiatCurrency]
    if (!market) throw invalid('fiatCurrency', `${req.fiatCurrency} is not supported`)
    const total = cents(req.fiatAmount)
    if (total < cents(market.min) || total > cents(market.max)) {
      throw invalid('fiatAmount', `must be between ${market.min} and ${market.max} ${req.fiatCurrency}`)
    }
    const percent = (total * 35n) / 1000n
    const providerFee = percent > market.flatFee ? percent : market.flatFee // flat minimum
    const ourFee = (total * settings.cardOurFeeBps) / 10_000n
    const converted = total - providerFee - ourFee
    const wei = (converted * 10n ** 18n) / market.rate
    const cryptoAmount = formatUnits((wei / 10n ** 10n) * 10n ** 10n, 18) // 8 decimals, as the provider shows
    return {
      req,
      quote: {
        cryptoAmount,
        cryptoCurrency: 'ETH',
        fiatAmount: fiat(converted),
        rate: fiat(market.rate),
        providerFee: fiat(providerFee),
        ourFee: fiat(ourFee),
        total: fiat(total),
        expiresAt: new Date(Date.now() + settings.cardQuoteTtlSeconds * 1000).toISOString(),
        environment: ENV,
      },
    }
  }

  function authorised(req) {
    if (req.headers.authorization !== `Bearer ${KEY}`) throw new HttpError(401, 'unauthorized', 'Missing, malformed or unknown key.')
  }

  function advance(p) {
    if (p.status === 'pending' && Date.now() > p.expiresAt) p.status = 'expired'
    if (p.status === 'processing' && Date.now() >= p.completeAt && !p.delivering) {
      p.delivering = chains.dst.wallet
        .sendTransaction({ to: p.walletAddress, value: parseEther(p.cryptoAmount) })
        .then(async (hash) => {
          await chains.dst.public.waitForTransactionReceipt({ hash })
          p.txHash = hash
          p.status = 'completed'
        })
        .catch((error) => {
          console.error('[sandbox] card delivery failed', error)
          p.status = 'failed'
          p.reason = 'delivery_failed'
        })
    }
    return p
  }

  // The partner backend: the kit's handler, as a partner mounts it, over one store for the life
  // of the sandbox. Who the user is: with `partnerToken` set, only that token, which is its own
  // user id; otherwise any token names its user (`alice`, `bob`), and a request without one is the
  // sandbox's one buyer (a partner that knows its buyer by its own session), so that widget links
  // without a token still pay. `partnerCredentials` allows cookies in CORS.
  const corsOptions = () => ({ allowedOrigins, allowCredentials: settings.partnerCredentials })
  // The partner's server around the kit (partnerDemo.mjs): its demo sign-in and the kit's store,
  // the stack's; one of its own, in memory and without a reconciler, when none is given.
  const server = demo ?? createPartnerDemo({ kit, apiBase: publicBase, apiKey: KEY })
  const partnerStore = () => server.store()
  const handlers = new Map()
  const partnerHandler = () => {
    const credentials = settings.partnerCredentials
    if (!handlers.has(credentials)) {
      handlers.set(
        credentials,
        kit.createPartnerHandler({
          apiBase: publicBase,
          apiKey: KEY,
          basePath: '/partner',
          // As the registry's partnerBase names it (stack.mjs): the wallet-link message names this kit.
          publicUrl: `${publicBase}/partner`,
          allowedOrigins,
          allowCredentials: credentials,
          store: partnerStore(),
          chains: partnerChains,
          // The partner's treasury: a deposit by address settles there, whatever the browser asks.
          depositDestination: partnerDestination,
          // Every test and example page of a stack signs in as the same few users: ten times the
          // default per-user rate (120 a minute), so that one test's requests never hold the next's.
          userRate: { requestsPerMinute: 1200 },
          // A demo session of the example pages names its demo user; otherwise as said above.
          authenticate: (token) => server.userOf(token) ?? (settings.partnerToken ? (token === settings.partnerToken ? token : undefined) : token),
          log: (line) => console.warn('[sandbox] partner backend:', line),
        }),
      )
    }
    return handlers.get(credentials)
  }
  const partner = async ({ body, req }) => {
    const request = toRequest(req, body, publicBase)
    if (!settings.partnerToken && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${SANDBOX_BUYER}`)
    return fromResponse(await partnerHandler()(request))
  }

  const page = (p, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox card page</title><link rel="icon" href="data:,"><style>body{font-family:system-ui,sans-serif;max-width:420px;margin:2rem auto;padding:0 1rem}button{min-height:44px;margin:4px 0;width:100%;font:inherit}label{display:block;margin-top:8px}input{width:100%;min-height:40px;font:inherit}</style></head>
<body><main><h1>Sandbox card page</h1><p>Sandbox: no card is charged.</p><p>Purchase <code>${p.id}</code>: ${p.total} ${p.fiatCurrency}</p>${body}</main></body></html>`

  return {
    partnerStore,
    routes: {
      'POST /card/quote': ({ body }) => ({ body: price(body).quote }),

      'POST /v1/card/quote': ({ body, req }) => (authorised(req), { body: price(body).quote }),
      'GET /v1/card/limits': ({ query, req }) => {
        authorised(req)
        const currency = query.get('fiatCurrency') ?? ''
        const crypto = query.get('cryptoCurrency')
        if (!crypto) throw invalid('cryptoCurrency', 'required')
        const market = MARKETS[currency]
        if (!market) throw invalid('fiatCurrency', `${currency || '(none)'} is not supported`)
        return { body: { fiatCurrency: currency, cryptoCurrency: crypto, min: market.min, max: market.max, environment: ENV } }
      },
      'POST /v1/card/kyc-token': ({ body, req }) => {
        authorised(req)
        const wallet = parseBody(z.object({ walletAddress: address }), body).walletAddress
        const token = `kyc_${randomBytes(12).toString('hex')}`
        tokens.set(token, wallet.toLowerCase())
        return { body: { token, environment: ENV } }
      },
      'POST /v1/card/purchase': ({ body, req }) => {
        authorised(req)
        const input = parseBody(purchaseRequest, body)
        if (tokens.get(input.kycToken) !== input.walletAddress.toLowerCase()) throw invalid('kycToken', 'unknown or for another wallet')
        const { quote } = price({ fiatCurrency: input.fiatCurrency, fiatAmount: input.fiatAmount })
        if (cents(input.fiatAmount) >= cents('4500') && input.fiatCurrency === 'EUR') {
          throw new HttpError(422, 'requires_action', 'The buyer needs a higher verification tier for this amount.')
        }
        const id = `cp_${randomBytes(8).toString('hex')}`
        const p = {
          id,
          status: 'pending',
          fiatCurrency: input.fiatCurrency,
          total: quote.total,
          cryptoAmount: quote.cryptoAmount,
          walletAddress: input.walletAddress,
          returnUrl: input.returnUrl,
          expiresAt: Date.now() + settings.cardPurchaseTtlSeconds * 1000,
        }
        purchases.set(id, p)
        const redirectUrl = hostileCardUrl(settings.cardRedirect, publicBase, `/card-page?id=${id}`) ?? `${publicBase}/card-page?id=${id}`
        settings.cardRedirect = undefined
        return { body: { id, redirectUrl, environment: ENV } }
      },
      'POST /v1/card/status': ({ body, req }) => {
        authorised(req)
        const { id } = parseBody(z.object({ id: z.string().min(1) }), body)
        const p = purchases.get(id)
        if (!p) throw new HttpError(404, 'not_found', 'No such purchase under the key.')
        advance(p)
        const out = { id, status: p.status, environment: ENV }
        if (p.status === 'completed') Object.assign(out, { cryptoAmount: p.cryptoAmount, cryptoCurrency: 'ETH', txHash: p.txHash })
        if (p.reason) out.reason = p.reason
        return { body: out }
      },

      // Every path the kit serves; the ones without a /v1 route here forward to the sandbox's 404.
      ...Object.fromEntries(kit.partnerRoutes.map(({ method, path }) => [`${method} /partner${path}`, partner])),

      'GET /card-page': ({ query }) => {
        const p = purchases.get(query.get('id') ?? '')
        if (!p) return { status: 404, html: '<!doctype html><title>Not found</title><p>No such purchase.</p>' }
        const form = (action, label) => `<form method="post" action="/card-page/${action}?id=${p.id}"><button type="submit">${label}</button></form>`
        return {
          html: page(
            p,
            `<label>Card number<input inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"></label>
${form('pay', 'Pay')}${form('decline', 'Decline (test a declined card)')}${form('abandon', 'Abandon and go back')}
<div id="apple-pay" hidden>${form('pay', 'Pay with Apple Pay')}</div>
<script>if (window.ApplePaySession && ApplePaySession.canMakePayments()) document.getElementById('apple-pay').hidden = false</script>`,
          ),
        }
      },
      'POST /card-page/pay': ({ query }) =>
        settle(query, (p) => {
          p.status = 'processing'
          p.completeAt = Date.now() + settings.cardProcessingMs
        }),
      'POST /card-page/decline': ({ query }) =>
        settle(query, (p) => {
          p.status = 'failed'
          p.reason = 'card_declined'
        }),
      'POST /card-page/abandon': ({ query }) =>
        settle(query, (p) => {
          p.status = 'cancelled'
        }),
    },
    control: {
      set(body) {
        if (Number.isFinite(body.cardQuoteTtlSeconds)) settings.cardQuoteTtlSeconds = body.cardQuoteTtlSeconds
        if (Number.isFinite(body.cardPurchaseTtlSeconds)) settings.cardPurchaseTtlSeconds = body.cardPurchaseTtlSeconds
        if (Number.isFinite(body.cardProcessingMs)) settings.cardProcessingMs = body.cardProcessingMs
        if (body.cardRedirect !== undefined) settings.cardRedirect = body.cardRedirect
        if (typeof body.partnerCredentials === 'boolean') settings.partnerCredentials = body.partnerCredentials
        if (body.partnerToken === null || typeof body.partnerToken === 'string') settings.partnerToken = body.partnerToken || undefined
      },
      reset() {
        settings = { ...defaults }
      },
    },
    close: () => (demo ? undefined : server.close()),
    /**
     * CORS for /partner/*, from the kit: the sandbox's server answers OPTIONS and injected faults
     * itself, before the handler runs, so they get the handler's headers from here.
     */
    plainHeaders(req) {
      if (!new URL(req.url, 'http://x').pathname.startsWith('/partner/')) return {}
      return { ...kit.partnerCorsHeaders(req.headers.origin, corsOptions(), req.method === 'OPTIONS'), Vary: 'Origin' }
    },
  }

  function settle(query, change) {
    const p = purchases.get(query.get('id') ?? '')
    if (!p) throw new HttpError(404, 'not_found', 'No such purchase.')
    if (p.status === 'pending') change(p)
    return { redirect: p.returnUrl }
  }
}

// node:http and the fetch standard. The sandbox's server has read the JSON body already (it
// dispatches on it), so the Request is built from the parsed body; the Response goes back as the
// sandbox's { status, body, headers } (a string body is sent as is).
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade'])

function toRequest(req, body, base) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && body !== undefined
  return new Request(new URL(req.url, base), {
    method: req.method,
    headers,
    body: hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
  })
}

async function fromResponse(res) {
  // Header names as the sandbox writes them (Content-Type), so none is sent twice in two cases.
  const headers = Object.fromEntries([...res.headers].map(([name, value]) => [name.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase()), value]))
  return { status: res.status, body: await res.text(), headers }
}
