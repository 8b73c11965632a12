// The partner's backend for the widget: it serves exactly the partner-backend paths the widget
// calls, checks each request against the contract, knows the partner's user by the bearer token
// the widget sends (never by cookies), and forwards to the service's partner path with the API key.
// It records which user created each payment and each account a user pays with, and answers 404
// to anyone else, without asking the service. The key goes into one header of one outgoing
// request and nowhere else: every body and every log line the handler writes is scrubbed of it.
import { type ApiKey, keyFingerprint, readApiKey } from './apiKey'
import { partnerCorsHeaders } from './cors'
import { createChainClients } from './chainClients'
import { type ChainsOption, createReceiptReader } from './depositReceipt'
import { depositStatus } from '../api/schemas-deposit'
import { duplicateKey } from './duplicateKey'
import type { KeyRate } from './reconcile/keyRate'
import { ROUTES, type Route, checkReturnUrl, describeIssue } from './routes'
import { scopedReference } from './scopedReference'
import { unstorableField, unstorableProblem } from './unstorable'
import { cryptoDepositId, type PaymentKind } from './store/kinds'
import { openPaymentStore } from './store/openPaymentStore'
import type { PaymentStore } from './store/paymentStore'
import { type UserLimits, checkUserLimits, overLimit } from './userLimits'
import { type LinkAnswer, linkWallet, walletChallenge } from './walletLink'

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
  /** Per-user limits over any 24 hours, per kind: `{ payout: { perDay: 3, maxAmount: { EUR: '1000' } } }`. */
  userLimits?: UserLimits
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

export type PartnerHandler = (request: Request) => Promise<Response>
/** What authenticate answers: your user's id, or no user (401). */
export type UserId = string | null | undefined | false

export const MAX_BODY = 16 * 1024
const DEPOSIT_STATUS = ROUTES.find((route) => route.path === '/deposit/status') as Route
const REDACTED = '[redacted]'

export function createPartnerHandler(options: PartnerHandlerOptions): PartnerHandler {
  const config = checkOptions(options)
  const { authenticate } = config
  const serviceFetch: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init))
  const fetchFn = options.keyRate ? options.keyRate.wrapFetch(serviceFetch) : serviceFetch
  // Every key read so far, in every spelling a body could carry it.
  const secrets = new Set<string>()
  const keep = (key: string) => {
    for (const spelling of [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)]) secrets.add(spelling)
    return key
  }
  if (typeof options.apiKey === 'string') keep(options.apiKey)
  const scrub = (text: string) => [...secrets].reduce((out, secret) => out.split(secret).join(REDACTED), text)
  const log = (line: string) => {
    try {
      ;(options.log ?? ((l: string) => console.warn(`[stablecoin-widget/server] ${l}`)))(scrub(line))
    } catch {
      // A failing logger must not turn an answer into a crash.
    }
  }
  const once = new Set<string>()
  const logOnce = (topic: string, line: string) => {
    if (once.has(topic)) return
    once.add(topic)
    log(line)
  }
  let store: Promise<PaymentStore> | undefined
  const openStore = () => {
    if (!store) {
      if (options.store) store = Promise.resolve(options.store)
      else {
        log('no store given: ownership is kept in memory (PGlite) and forgotten on restart; pass openPaymentStore({ dataDir }) or ({ pool })')
        store = openPaymentStore()
      }
      // A store that fails to open is tried again on the next request.
      store.catch(() => (store = undefined))
    }
    return store
  }
  const chainClient = createChainClients(config.chains, config.timeoutMs)
  const readReceipt = createReceiptReader(chainClient)
  const limits = config.userLimits
  // Per user, one creation at a time in this process: a limit is checked and the payment recorded
  // before the next is checked. (Across instances, two at once can both pass: docs/server-store.md.)
  const queues = new Map<string, Promise<unknown>>()
  const oneAtATime = <T>(userId: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(userId) ?? Promise.resolve()
    const mine = previous.then(work, work)
    const tail = mine.catch(() => {})
    queues.set(userId, tail)
    tail.then(() => queues.get(userId) === tail && queues.delete(userId))
    return mine
  }
  const routes = new Map<string, Route>(ROUTES.map((route) => [config.basePath + route.path, route]))

  return async function handlePartnerRequest(request: Request): Promise<Response> {
    const origin = request.headers.get('Origin')
    const cors = partnerCorsHeaders(origin, config)
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(scrub(JSON.stringify(body)), {
        status,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          Vary: 'Origin',
          ...cors,
          ...headers,
        },
      })
    // The envelope is the service's; the codes the kit answers with on its own are not (README,
    // "The kit's own codes"), so that the partner's logs tell a refusal here from the service's.
    const fail = (status: number, code: KitCode, message: string, headers?: Record<string, string>) =>
      reply(status, { error: { code, message } }, headers)
    const notFound = () => fail(404, 'payment_not_found', 'No such payment for this user.')

    try {
      // A page of another origin is refused outright, not only left without CORS headers: the
      // request would otherwise still run with the key. Callers without Origin are not browsers.
      if (origin !== null && !config.allowedOrigins.includes(origin)) return fail(403, 'origin_not_allowed', 'origin: not allowed')
      const url = new URL(request.url)
      const route = routes.get(url.pathname)
      if (!route) return fail(404, 'route_not_found', 'No such endpoint in the partner backend.')
      if (request.method === 'OPTIONS') {
        return new Response(null, { status: 204, headers: { Vary: 'Origin', ...partnerCorsHeaders(origin, config, true) } })
      }
      if (request.method !== route.method) {
        return fail(405, 'method_not_allowed', `method: this endpoint takes ${route.method}`, { Allow: `${route.method}, OPTIONS` })
      }
      // The body is read once, with its size capped while it streams in.
      const input = route.method === 'GET' ? readQuery(url) : await readBody(request)
      const token = /^Bearer ([\x21-\x7e]+)$/i.exec(request.headers.get('Authorization') ?? '')?.[1]
      let userId: string | undefined
      if (!(config.allowAnonymous && route.owns && 'anonymous' in route.owns && !token)) {
        if (!authenticate || !token) return fail(401, 'unauthenticated', 'Authorization: a bearer token is required.')
        let answer: unknown
        try {
          // A fresh copy, so that authenticate may read the body (the original is consumed).
          const text = 'text' in input ? input.text : undefined
          answer = await authenticate(token, new Request(request.url, { method: request.method, headers: request.headers, body: text }))
        } catch (error) {
          // Session and JWT libraries quote the token they refused: it is a bearer credential.
          log(`authenticate threw: ${describe(error).split(token).join(REDACTED)}`)
        }
        if (typeof answer === 'string' && answer !== '') userId = answer
        else {
          if (answer) {
            logOnce('authenticate', `authenticate returned ${typeof answer === 'object' ? 'an object' : JSON.stringify(answer)}: it must return your user's id (a non-empty string), which owns what the request creates; the request was refused`)
          }
          return fail(401, 'unauthenticated', 'The partner token was refused.')
        }
      }
      if ('problem' in input) return fail(input.status, input.code, input.problem)
      const parsed = route.schema.safeParse(input.value)
      if (!parsed.success) return fail(400, 'invalid_field', describeIssue(parsed.error, input.value))
      const data = parsed.data as Record<string, unknown>
      if (route.returns) {
        const back = checkReturnUrl(data.returnUrl as string, origin, config.allowedOrigins)
        if ('problem' in back) return fail(400, 'invalid_field', back.problem)
        data.returnUrl = back.href
      }
      const owns = route.owns
      if (!userId || !owns || 'anonymous' in owns) return await forward(route, data)
      const user = userId
      const payments = await openStore()
      if ('reads' in owns) {
        if ((await payments.ownerOf(owns.reads, data.id as string)) !== user) return notFound()
        return await forward(route, data)
      }
      if ('quotes' in owns) {
        return await forward(route, data, async (answer) => {
          const { quoteId, fiatAmount } = answer as { quoteId?: unknown; fiatAmount?: unknown }
          if (typeof quoteId === 'string' && quoteId && typeof fiatAmount === 'string' && /^\d{1,18}(\.\d{1,18})?$/.test(fiatAmount)) {
            await payments.recordQuote({ id: quoteId, userId: user, amount: fiatAmount, currency: data.fiatCurrency as string })
          }
          return undefined
        })
      }
      if ('creates' in owns) return await create(route, owns.creates, data, user, payments)
      if ('opens' in owns) {
        return await forward(route, data, async (answer) => {
          const { id } = answer as { id?: unknown }
          if (typeof id !== 'string' || id === '') {
            log(`${route.method} ${route.upstream}: the service answered without an id; nothing was recorded`)
            return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
          }
          if (await payments.bindCardSession(user, id)) return undefined
          log(`${route.method} ${route.upstream}: the service answered card session ${id}, which another user holds; not handed over`)
          return notFound()
        })
      }
      if (owns.kit === 'depositStatus') {
        const id = data.id as string
        if ((await payments.ownerOf('deposit', id)) !== user) return notFound()
        // The provider and the receipt the kit read from the chain, as the contract's request.
        return await forward(route, (await payments.detailsOf('deposit', id)) ?? {})
      }
      if (owns.kit === 'walletChallenge' || owns.kit === 'walletLink') {
        // The message names the page it is signed for: only a page (with its Origin) links a wallet.
        // And this kit (publicUrl, required with chains; without chains no message is written or taken).
        if (origin === null) return fail(403, 'origin_not_allowed', 'Origin: a wallet is linked from a page of allowedOrigins')
        const asked = { user, origin, kit: config.publicUrl ?? '', now: new Date() }
        if (owns.kit === 'walletLink') return answer(await linkWallet(payments, chainClient, { ...asked, ...(data as { message: string; signature: `0x${string}` }) }))
        const { address, chainId } = data as { address: string; chainId: number }
        if (!Object.hasOwn(config.chains, chainId)) return fail(400, 'chain_not_configured', `chainId: ${chainId} is not a chain this backend reads`)
        return answer(await walletChallenge(payments, { ...asked, address, chainId }))
      }
      return await depositSent(data as { provider: string; txHash: `0x${string}`; chainId: number }, user, payments)
    } catch (error) {
      log(`unexpected error: ${describe(error)}`)
      return fail(500, 'kit_error', 'Unexpected error in the partner backend.')
    }

    function answer(link: LinkAnswer): Response {
      if (link.status === 200) return reply(200, link.body)
      if (link.log) log(link.log)
      return fail(link.status, link.code, link.problem)
    }

    /** A creating route: the account bound, the limit checked, then forwarded, then recorded. */
    async function create(route: Route, kind: PaymentKind, data: Record<string, unknown>, user: string, payments: PaymentStore): Promise<Response> {
      // A card page session another user opened (or none the kit opened) is not this user's to
      // pay out to: refused as their payments are, before the account is bound.
      if (typeof data.cardSession === 'string' && (await payments.cardSessionHolder(data.cardSession)) !== user) return notFound()
      // Bound before anything is forwarded, so that of two users racing with one account only one
      // reaches the service. A creation the service then refuses leaves the binding: that user
      // did present the account (docs/server-store.md).
      if (typeof data.accountId === 'string') {
        const walletId = typeof data.walletId === 'string' ? data.walletId : undefined
        if (!(await payments.bindAccount(user, data.accountId, walletId))) {
          return fail(403, 'account_not_owned', 'accountId: this account is another user\'s.')
        }
      }
      // Scoped to the user before the service hears it (scopedReference.ts); the user's own is kept
      // with the payment, beside what was sent, and given back where the service echoes it.
      const reference = typeof data.reference === 'string' ? data.reference : undefined
      const sentReference = reference === undefined ? undefined : await scopedReference(user, reference)
      const sent = reference === undefined ? data : { ...data, reference: sentReference }
      const details = reference === undefined ? undefined : { reference, sentReference }
      return oneAtATime(user, async () => {
        let amount: { amount: string; currency: string } | undefined
        if (typeof data.fiatAmount === 'string') amount = { amount: data.fiatAmount, currency: data.fiatCurrency as string }
        if (kind === 'payout' || kind === 'cardPayout') {
          const quote = await payments.quoteOf(data.quoteId as string)
          if (quote && quote.userId === user) amount = { amount: quote.amount, currency: quote.currency }
          else if (limits[kind]?.maxAmount) return fail(400, 'invalid_field', 'quoteId: not a quote this backend gave this user')
        }
        const over = await overLimit(payments, limits, user, kind, amount)
        if (over) return fail(429, 'user_limit_reached', `This user's limit is reached: ${over}.`)
        return forward(route, sent, async (answer) => {
          const { id, status } = answer as { id?: unknown; status?: unknown }
          if (typeof id !== 'string' || id === '') {
            log(`${route.method} ${route.upstream}: the service answered without an id; nothing was recorded`)
            return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
          }
          const mine = await payments.recordPayment({ kind, id, userId: user, details, status: typeof status === 'string' ? status : undefined, ...amount })
          if (!mine) {
            // The service handed back a payment another user holds (a reused reference no longer
            // does it: each is scoped to its user): its details are not this user's to see.
            log(`${route.method} ${route.upstream}: the service answered ${kind} ${id}, which another user holds; not handed over`)
            return notFound()
          }
          // Answered as it came (forward replies with this object), but with the user's own reference.
          if (reference !== undefined && (answer as { reference?: unknown }).reference === sentReference) (answer as { reference?: unknown }).reference = reference
          return undefined
        })
      })
    }

    async function depositSent(data: { provider: string; txHash: `0x${string}`; chainId: number }, user: string, payments: PaymentStore): Promise<Response> {
      const id = cryptoDepositId(data.provider, data.txHash)
      // The transaction under any provider's spelling: one transaction is one deposit. The owner's
      // own retry is answered at once; any other goes through the same checks as a transaction
      // nobody recorded, so that whose it is shows neither in the answer nor in what is checked.
      const held = await payments.depositOf(data.txHash)
      if (held && held.userId === user && held.id === id) return reply(200, { id })
      if (!Object.hasOwn(config.chains, data.chainId)) return fail(400, 'chain_not_configured', `chainId: ${data.chainId} is not a chain this backend reads`)
      const read = await readReceipt(data.chainId, data.txHash)
      if (!read.ok) {
        if (read.log) log(read.log)
        return read.status === 502 ? fail(502, 'chain_unreachable', read.problem) : fail(422, 'deposit_unverified', read.problem)
      }
      // Only a sender this user linked by signing with it (walletLink.ts): a transaction's hash is
      // public on the chain, and naming it proves nothing. Nobody's and another user's sender are
      // refused alike (whose an address is, is not told), before the service hears of it.
      if ((await payments.addressHolder(read.from)) !== user) {
        return fail(403, 'wallet_not_linked', 'txHash: its sender is not a wallet this user linked (POST /deposit/wallet)')
      }
      // From this user's own wallet, and recorded already: under another provider's spelling, or by
      // a user who named it before the wallet was linked to this one.
      if (held) return notFound()
      // Over the limit already: the service is not asked (it is asked again below, one at a time).
      const over = await overLimit(payments, limits, user, 'deposit', undefined)
      if (over) return fail(429, 'user_limit_reached', `This user's limit is reached: ${over}.`)
      const details = { provider: data.provider, receipt: read.receipt }
      // Any token transfer off the chain passes the receipt's checks: only a deposit the service knows is recorded.
      const known = await forward(DEPOSIT_STATUS, details, async (answer) => {
        if (!depositStatus.safeParse(answer).success) {
          log(`${DEPOSIT_STATUS.method} ${DEPOSIT_STATUS.upstream}: the answer does not match the contract; nothing was recorded`)
          return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
        }
        return oneAtATime(user, async () => {
          const over = await overLimit(payments, limits, user, 'deposit', undefined)
          if (over) return fail(429, 'user_limit_reached', `This user's limit is reached: ${over}.`)
          if (!(await payments.recordPayment({ kind: 'deposit', id, userId: user, details }))) return notFound()
          return reply(200, { id })
        })
      })
      // The contract's /deposit/status refuses a receipt with no deposit in it with a 400.
      if (known.status === 400) {
        return fail(422, 'deposit_unverified', 'txHash: the payment service knows no deposit in this transaction')
      }
      return known
    }

    /**
     * Forwards the checked fields with the key. `onSuccess` sees a 2xx answer first, and may
     * answer instead of it.
     */
    async function forward(route: Route, data: Record<string, unknown>, onSuccess?: (answer: object) => Promise<Response | undefined>): Promise<Response> {
      const target = new URL(config.apiBase + route.upstream)
      const where = `${route.method} ${route.upstream}`
      let apiKey: string
      try {
        apiKey = keep(await readApiKey(config.apiKey))
      } catch (error) {
        log(`apiKey could not be read: ${describe(error)}`)
        return fail(500, 'kit_error', 'Unexpected error in the partner backend.')
      }
      const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' }
      let body: string | undefined
      if (route.method === 'GET') {
        for (const [name, value] of Object.entries(data)) if (value !== undefined) target.searchParams.set(name, String(value))
      } else {
        headers['Content-Type'] = 'application/json'
        body = JSON.stringify(data)
      }
      let res: Response
      let text: string
      try {
        // redirect: 'error': the key is never sent on to wherever a redirect points.
        res = await fetchFn(target, { method: route.method, headers, body, redirect: 'error', signal: AbortSignal.timeout(config.timeoutMs) })
        text = await res.text()
      } catch (error) {
        log(`${where}: the service could not be reached (${describe(error)})`)
        return fail(502, 'service_unreachable', 'The payment service could not be reached.')
      }
      const answer = parseJson(text)
      if (res.status === 401) {
        // The service refused our key: the buyer's token is fine, this backend is misconfigured.
        // Once per key: a rotated key that is refused too gets its own line.
        const print = await keyFingerprint(apiKey)
        logOnce(`401 ${print}`, `${where}: the service refused the API key with fingerprint ${print} (401)`)
        return fail(502, 'service_refused_key', 'The payment service refused this backend.')
      }
      if (res.ok) {
        if (typeof answer !== 'object' || answer === null) {
          log(`${where}: the service answered ${res.status} with a body that is not a JSON object`)
          return fail(502, 'service_unreadable', 'The payment service sent an answer that could not be read.')
        }
        return (await onSuccess?.(answer)) ?? reply(res.status, answer)
      }
      const retryAfter = checkedRetryAfter(res.headers.get('Retry-After'))
      const extra: Record<string, string> = retryAfter ? { 'Retry-After': retryAfter } : {}
      const status = res.status >= 400 && res.status <= 599 ? res.status : 502
      // A code of the kit's own from the service would read, in the partner's logs, as the kit's.
      if (isEnvelope(answer) && !(KIT_CODES as ReadonlySet<string>).has(answer.error.code)) {
        return reply(status, { error: { code: answer.error.code, message: answer.error.message } }, extra)
      }
      log(`${where}: the service answered ${res.status} without the error envelope`)
      return fail(status, 'service_error', `The payment service answered ${res.status}.`, extra)
    }
  }
}

/** The codes the kit answers with on its own (README, "The kit's own codes"); the service uses none of them. */
export const KIT_CODES = new Set([
  'origin_not_allowed',
  'route_not_found',
  'method_not_allowed',
  'unauthenticated',
  'unsupported_media_type',
  'body_too_large',
  'request_timeout',
  'bad_request',
  'invalid_json',
  'duplicate_key',
  'invalid_field',
  'kit_error',
  'service_unreachable',
  'service_refused_key',
  'service_unreadable',
  'service_error',
  'payment_not_found',
  'account_not_owned',
  'user_limit_reached',
  'chain_not_configured',
  'chain_unreachable',
  'deposit_unverified',
  'wallet_not_linked',
  'wallet_unverified',
  'wallet_not_owned',
] as const)
type KitCode = typeof KIT_CODES extends Set<infer C> ? C : never

type Problem = { problem: string; status: number; code: KitCode }
type Input = { value: unknown; text?: string } | Problem

const refuse = (code: KitCode, problem: string, status = 400): Problem => ({ problem, status, code })

function readQuery(url: URL): Input {
  const value: Record<string, string> = {}
  for (const [name, field] of url.searchParams) {
    if (Object.hasOwn(value, name)) return refuse('duplicate_key', `${name}: given more than once`)
    value[name] = field
  }
  const unstorable = unstorableField(value)
  if (unstorable !== undefined) return refuse('invalid_field', unstorableProblem(unstorable))
  return { value }
}

async function readBody(request: Request): Promise<Input> {
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('Content-Type') ?? '')) {
    return refuse('unsupported_media_type', 'Content-Type: must be application/json', 415)
  }
  const tooLarge = refuse('body_too_large', 'body: at most 16 KiB', 413)
  if (Number(request.headers.get('Content-Length') ?? 0) > MAX_BODY) return tooLarge
  const text = await readLimited(request)
  if (text === undefined) return tooLarge
  if (text.trim() === '') return refuse('invalid_json', 'body: required')
  const value = parseJson(text)
  if (value === undefined) return refuse('invalid_json', 'body: not valid JSON')
  // JSON.parse keeps the last of two equal keys: the body would mean one thing here and another to
  // whoever reads the first (authenticate, a log).
  const twice = duplicateKey(text)
  if (twice !== undefined) return refuse('duplicate_key', `${twice}: given more than once`)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('invalid_json', 'body: must be a JSON object')
  const unstorable = unstorableField(value)
  if (unstorable !== undefined) return refuse('invalid_field', unstorableProblem(unstorable))
  return { value, text }
}

/**
 * Retry-After as RFC 9110 lets a sender write it: delta-seconds (digits only, at most 10 of
 * them) or an IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT"). Anything else, from the service or a
 * proxy in between, is dropped, never passed on.
 */
function checkedRetryAfter(value: string | null): string | undefined {
  if (value === null) return undefined
  if (/^[0-9]{1,10}$/.test(value)) return value
  if (!/^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/.test(value)) return undefined
  // toUTCString writes an IMF-fixdate: a date that reads back as written is a real moment (no
  // 31 February, no hour 25, its weekday right).
  return new Date(Date.parse(value)).toUTCString() === value ? value : undefined
}

/** The body as text, or undefined as soon as it passes MAX_BODY bytes (a chunked body has no Content-Length). */
async function readLimited(request: Request): Promise<string | undefined> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_BODY) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(bytes)
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isEnvelope(value: unknown): value is { error: { code: string; message: string } } {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'string' && typeof error.message === 'string'
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return `${error.name}: ${error.message}${cause}`
  }
  return String(error)
}

function checkOptions(options: PartnerHandlerOptions) {
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
    throw problem('authenticate is required: it tells your users from anyone else who would spend your key (allowAnonymous: true serves only the reference data)')
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
      throw problem('publicUrl must be this kit\'s absolute http(s) address as the widget\'s partnerBase names it, like "https://shop.example/api/partner", without a query or credentials')
    }
  } else if (Object.keys(chains).length > 0) {
    throw problem('publicUrl is required with chains: the wallet-link message names this kit by it, as the widget\'s partnerBase (docs/partner-kit.md)')
  }
  let userLimits: UserLimits
  try {
    userLimits = checkUserLimits(options.userLimits)
  } catch (error) {
    throw problem((error as Error).message)
  }
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
    timeoutMs,
  }
}
