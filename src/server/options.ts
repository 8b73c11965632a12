// What createPartnerHandler takes, and its check: a partner's mistake is a TypeError at start,
// never a request that runs with the key.
import type { ApiKey } from './apiKey'
import { type DepositDestinationOption, checkDepositDestination } from './depositDestination'
import type { ChainsOption } from './depositReceipt'
import type { KeyRate } from './reconcile/keyRate'
import type { PaymentStore } from './store/paymentStore'
import { type UserLimits, checkUserLimits } from './userLimits'
import { type UserRate, type UserRateOptions, checkUserRate } from './userRate'

export type PartnerHandlerOptions = {
  /** The service, e.g. `https://api.example.com`; requests go to `${apiBase}/v1/...`. */
  apiBase: string
  /**
   * The partner's API key, or a function read on every request (a rotated key is used without a
   * restart). It never leaves this process except towards apiBase.
   */
  apiKey: ApiKey
  /** Exact origins of the pages that embed the widget; no other origin gets CORS headers. */
  allowedOrigins: readonly string[]
  /** Where the handler is mounted: `/partner` serves `/partner/card/purchase`, and so on. */
  basePath?: string
  /**
   * This kit's public address, exactly as the widget's `partnerBase` names it (e.g.
   * `https://shop.example/api/partner`). The wallet-link message names it, and the widget signs
   * only a message naming its own partner backend: every partner's hosted page shares the widget's
   * origin, so without it another partner's backend could relay this kit's message to its buyers.
   * Required with `chains` (the deposit routes). Not read from the request: behind a proxy, or
   * from a Host header anyone sets, the request's URL is not what the widget knows.
   */
  publicUrl?: string
  /**
   * Your own user, by the `partnerToken` the widget sends as `Authorization: Bearer …`: return
   * that user's id (a non-empty string). Nothing, false, null or a throw answers 401. Every payment
   * the kit creates is recorded against this id, and only this id reaches it again. Required.
   */
  authenticate?: (token: string, request: Request) => UserId | Promise<UserId>
  /**
   * Serve callers without a token, but only the routes that create nothing and read nothing of
   * anyone's (the limits, payment methods, card rate and card limits). Every other route still
   * needs `authenticate`.
   */
  allowAnonymous?: boolean
  /**
   * Where ownership, bindings, usage and quotes live. Default: PGlite in memory, which a restart
   * forgets (logged once): pass `openPaymentStore({ dataDir })` or `openPaymentStore({ pool })`.
   */
  store?: PaymentStore | Promise<PaymentStore>
  /** The RPC the kit reads crypto deposits from, per chain id: `{ 8453: { rpcUrl: 'https://…' } }`. */
  chains?: ChainsOption
  /**
   * Where the crypto deposits this kit hands out addresses for settle (`POST /deposit/address`):
   * `{ chainId, token, address }`, your own wallet or treasury, or a function of your user's id
   * that answers it (undefined: none for that user). The kit fills it into every quote it asks and
   * refuses a request naming another (400 `destination_not_allowed`): a deposit you credit must pay
   * you, not the buyer's own wallet. Without it, `/deposit/address` gives no address (400
   * `destination_not_configured`).
   */
  depositDestination?: DepositDestinationOption
  /** Per-user limits over any 24 hours, per kind: `{ payout: { perDay: 3, maxAmount: { EUR: '1000' } } }`. */
  userLimits?: UserLimits
  /**
   * Each signed-in user's request rate at this handler (default `{ requestsPerMinute: 120 }`, a burst
   * of 60): one user cannot spend your key's rate for everyone (429 `user_rate_limited`, with
   * Retry-After, before the service is asked). Per process. `false`: no per-user rate.
   */
  userRate?: UserRateOptions | false
  /** Answer `Access-Control-Allow-Credentials: true`, for a widget configured with `partnerCookies`. */
  allowCredentials?: boolean
  fetch?: typeof fetch
  /** The key's rate, shared with createReconciler (createKeyRate()): the reconciler yields to these requests and their 429s. */
  keyRate?: KeyRate
  /** Time allowed to the service (and to a chain's RPC) per request (default 15 s). */
  timeoutMs?: number
  /** Where the handler reports upstream failures (default: console.warn). Lines never hold the key. */
  log?: (line: string) => void
}

/** What authenticate answers: your user's id, or no user (401). */
export type UserId = string | null | undefined | false

export type KitConfig = ReturnType<typeof checkOptions>

export function checkOptions(options: PartnerHandlerOptions) {
  const problem = (what: string) => new TypeError(`createPartnerHandler: ${what}`)
  let apiBase: URL
  try {
    apiBase = new URL(options.apiBase)
  } catch {
    throw problem('apiBase must be an absolute http or https URL')
  }
  if (apiBase.protocol !== 'https:' && apiBase.protocol !== 'http:') throw problem('apiBase must be an http or https URL')
  if (typeof options.apiKey !== 'function' && (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey))) {
    throw problem('apiKey must be a non-empty string of printable characters without spaces, or a function that returns one')
  }
  const origins = options.allowedOrigins
  if (!Array.isArray(origins)) throw problem('allowedOrigins must be an array of origins like "https://shop.example"')
  for (const origin of origins) {
    if (typeof origin !== 'string' || !/^https?:\/\/[^/?#\s]+$/.test(origin)) {
      throw problem(`allowedOrigins: ${JSON.stringify(origin)} is not an origin like "https://shop.example"`)
    }
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '')
  if (basePath && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) throw problem('basePath must be a path like "/partner"')
  if (options.authenticate !== undefined && typeof options.authenticate !== 'function') throw problem('authenticate must be a function')
  if (options.authenticate === undefined && options.allowAnonymous !== true) {
    throw problem(
      'authenticate is required: it tells your users from anyone else who would spend your key (allowAnonymous: true serves only the reference data)',
    )
  }
  const chains: Record<number, { rpcUrl: string }> = {}
  for (const [id, chain] of Object.entries(options.chains ?? {})) {
    let rpc: URL | undefined
    try {
      rpc = new URL((chain as { rpcUrl?: unknown })?.rpcUrl as string)
    } catch {}
    if (!/^[1-9][0-9]*$/.test(id) || !rpc || (rpc.protocol !== 'https:' && rpc.protocol !== 'http:')) {
      throw problem(`chains: ${JSON.stringify(id)} must be a chain id with { rpcUrl: "https://…" }`)
    }
    chains[Number(id)] = { rpcUrl: rpc.href }
  }
  let publicUrl: URL | undefined
  if (options.publicUrl !== undefined) {
    try {
      publicUrl = new URL(options.publicUrl)
    } catch {}
    if (!publicUrl || !/^https?:$/.test(publicUrl.protocol) || publicUrl.username || publicUrl.password || /[?#]/.test(options.publicUrl)) {
      throw problem(
        'publicUrl must be this kit\'s absolute http(s) address as the widget\'s partnerBase names it, like "https://shop.example/api/partner", without a query or credentials',
      )
    }
  } else if (Object.keys(chains).length > 0) {
    throw problem("publicUrl is required with chains: the wallet-link message names this kit by it, as the widget's partnerBase (docs/partner-kit.md)")
  }
  let userLimits: UserLimits
  let userRate: UserRate | undefined
  try {
    userLimits = checkUserLimits(options.userLimits)
    userRate = checkUserRate(options.userRate)
  } catch (error) {
    throw problem((error as Error).message)
  }
  const depositDestination = checkDepositDestination(options.depositDestination)
  if (typeof depositDestination === 'string') throw problem(depositDestination)
  const timeoutMs = options.timeoutMs ?? 15_000
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw problem('timeoutMs must be a positive number')
  return {
    apiBase: apiBase.href.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    allowedOrigins: [...origins],
    allowCredentials: options.allowCredentials === true,
    basePath,
    authenticate: options.authenticate,
    allowAnonymous: options.allowAnonymous === true,
    chains,
    publicUrl: publicUrl?.href.replace(/\/+$/, ''),
    userLimits,
    userRate,
    depositDestination,
    timeoutMs,
  }
}
