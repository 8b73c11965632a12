// The partner-backend paths the widget calls, each with the request it may carry, exactly as
// ../shared/spec/partner-api.md and assumed-contract.md define it, and the service's partner path
// it forwards to. Strict objects: a field the contract does not define is refused by name.
import * as z from 'zod/mini'
import type { PaymentKind } from './store/kinds'

const text = (max: number) => z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`))
const decimal = z.string().check(z.regex(/^\d{1,18}(\.\d{1,18})?$/, 'must be a decimal string like "25.50"'))
const currency = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like "EUR"'))
const country = z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code like "DE"'))
const asset = z.string().check(z.regex(/^[A-Za-z0-9.]{1,16}$/, 'must be an asset symbol like "USDC"'))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address of 40 hex digits'))
const reference = z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(64, 'must be at most 64 characters'))
const httpUrl = z.string().check(
  z.maxLength(8192, 'must be at most 8192 characters'),
  z.refine((value) => {
    try {
      const { protocol, username, password } = new URL(value)
      return (protocol === 'https:' || protocol === 'http:') && !username && !password
    } catch {
      return false
    }
  }, 'must be an http or https URL without a user name or password'),
)
const id = z.strictObject({ id: text(128) })
const chain = z.int().check(z.positive('must be a chain id'))
// A payout's quote (bank or card): the source, the currency paid out, and exactly one amount.
const payoutQuote = { cryptoCurrency: asset, chain, fiatCurrency: currency, cryptoAmount: z.optional(decimal), fiatAmount: z.optional(decimal) }
const oneAmount = z.refine<{ cryptoAmount?: string; fiatAmount?: string }>((quote) => (quote.cryptoAmount === undefined) !== (quote.fiatAmount === undefined), {
  message: 'send cryptoAmount or fiatAmount, exactly one of the two',
  path: ['cryptoAmount'],
})

// The beneficiary's fields beyond `name` and `schema` depend on its schema, and the contract names
// them only for some schemas; the service refuses any the schema does not define. So only their
// form is checked here: strings, and one level of strings for an address object.
const beneficiary = z.catchall(
  z.object({ name: text(256), schema: z.string().check(z.regex(/^[a-z_]{2,32}$/, 'must be a beneficiary schema like "bank_sepa"')) }),
  z.union([text(256), z.record(z.string(), z.string().check(z.maxLength(256)))], 'must be a string or an object of strings'),
)

/** What a route does with the partner's payments, which decides what the kit checks and records. */
export type Ownership =
  /** Reference data, the same for everyone: served to anonymous callers when `allowAnonymous`. */
  | { anonymous: true }
  /** A status read or follow-up of the payment `id`: only its owner reaches the service. */
  | { reads: PaymentKind }
  /** Creates a payment of this kind, recorded against the user from the service's answer. */
  | { creates: PaymentKind }
  /** Records the quote's amount for the user, for a payout's amount ceiling. */
  | { quotes: true }
  /**
   * Opens the hosted card page a payment is then created with: the session is recorded as the
   * user's (a creation naming it must be theirs).
   */
  | { opens: 'cardSession' }
  /** Served by the kit itself (the crypto deposit's routes). */
  | { kit: 'depositSent' | 'depositStatus' | 'walletChallenge' | 'walletLink' }

export type Route = {
  method: 'GET' | 'POST'
  /** The widget-facing path under the handler's basePath. */
  path: string
  /** The service's partner path under apiBase. */
  upstream: string
  /** The JSON body (POST) or the query (GET). */
  schema: z.ZodMiniType
  /** Undefined: needs a user, creates and reads nothing of the user's (the KYC token). */
  owns?: Ownership
  /**
   * Its `returnUrl` is where the card provider sends the buyer back: held to the page that asks and
   * forwarded as checked (checkReturnUrl).
   */
  returns?: true
}

const post = (path: string, schema: z.ZodMiniType, owns?: Ownership): Route => ({ method: 'POST', path, upstream: `/v1${path}`, schema, owns })
const get = (path: string, schema: z.ZodMiniType): Route => ({ method: 'GET', path, upstream: `/v1${path}`, schema, owns: { anonymous: true } })
const returning = (route: Route): Route => ({ ...route, returns: true })
const txHash = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, 'must be a transaction hash: 0x and 64 hex digits'))

export const ROUTES: readonly Route[] = [
  // Card payment (assumed-contract.md: "Card payment: the partner's backend").
  post('/card/kyc-token', z.strictObject({ walletAddress: address })),
  returning(
    post(
      '/card/purchase',
      z.strictObject({ kycToken: text(4096), fiatCurrency: currency, fiatAmount: decimal, walletAddress: address, returnUrl: httpUrl }),
      { creates: 'card' },
    ),
  ),
  post('/card/status', id, { reads: 'card' }),
  get('/card/limits', z.strictObject({ fiatCurrency: currency, cryptoCurrency: asset })),
  get(
    '/card/rate',
    z.strictObject({ fiatCurrency: currency, cryptoCurrency: asset, amount: decimal, side: z.optional(z.enum(['buy', 'sell'])) }),
  ),
  // Reference data. The request of /payment-methods is not shown in the contract: it takes none.
  get('/limits', z.strictObject({ currency: z.optional(currency) })),
  get('/payment-methods', z.strictObject({})),
  // One-off bank deposit (permission `bank`).
  post(
    '/bank/deposit',
    z.strictObject({ accountId: text(128), walletId: text(128), fiatCurrency: currency, fiatAmount: decimal, reference: z.optional(reference) }),
    { creates: 'bankDeposit' },
  ),
  post('/bank/deposit/status', id, { reads: 'bankDeposit' }),
  // Bank payout (permission `bank-payouts`).
  post(
    '/bank/payout/quote',
    z
      .strictObject({
        ...payoutQuote,
        country,
        rail: z.optional(z.string().check(z.regex(/^[a-z0-9_]{1,32}$/, 'must be a rail like "sepa_instant"'))),
      })
      .check(oneAmount),
    { quotes: true },
  ),
  post(
    '/bank/payout',
    z.strictObject({
      quoteId: text(128),
      accountId: text(128),
      beneficiary,
      purpose: z.optional(text(512)),
      reference: z.optional(reference),
    }),
    { creates: 'payout' },
  ),
  post('/bank/payout/status', id, { reads: 'payout' }),
  // Card payout (permission `card-payouts`; creation as assumed-contract.md fixes it): the card that
  // receives the money is entered on the provider's hosted page, opened by a session of the user's.
  post('/card/payout/quote', z.strictObject(payoutQuote).check(oneAmount), { quotes: true }),
  returning(post('/card/payout/card-session', z.strictObject({ returnUrl: httpUrl }), { opens: 'cardSession' })),
  post(
    '/card/payout',
    z.strictObject({ quoteId: text(128), accountId: text(128), cardSession: text(128), reference: z.optional(reference) }),
    { creates: 'cardPayout' },
  ),
  post('/card/payout/status', id, { reads: 'cardPayout' }),
  // The crypto deposit, where the partner has a backend: the widget says which transaction it sent
  // (never its receipt: the kit reads that from the chain), then asks its status by the kit's id.
  post(
    '/deposit/sent',
    z.strictObject({ provider: text(128), txHash, chainId: chain }),
    { kit: 'depositSent' },
  ),
  post('/deposit/status', z.strictObject({ id: text(256) }), { kit: 'depositStatus' }),
  // The sender of a deposit must be a wallet its user linked: the kit's message to sign with it
  // (EIP-4361), then that message signed (src/server/walletLink.ts).
  post('/deposit/wallet', z.strictObject({ address, chainId: chain }), { kit: 'walletChallenge' }),
  post(
    '/deposit/wallet/link',
    z.strictObject({
      message: text(2048),
      // 65 bytes from an account's key; a smart wallet's (EIP-1271, ERC-6492) may be much longer.
      signature: z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2}){65,6000}$/, 'must be a signature: 0x and at least 130 hex digits')),
    }),
    { kit: 'walletLink' },
  ),
]

/** The first problem of a refused request, naming the field. */
export function describeIssue(error: z.core.$ZodError, input: unknown): string {
  const issue = error.issues[0]
  if (!issue) return 'request: invalid'
  const at = issue.path.map(String)
  if (issue.code === 'unrecognized_keys') {
    return `${[...at, issue.keys[0]].join('.')}: not a field of this request`
  }
  const field = at.length ? at.join('.') : 'body'
  const given = at.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], input)
  if (issue.code === 'invalid_type' && given === undefined) return `${field}: required`
  if (issue.code === 'invalid_type') return `${field}: must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`
  return `${field}: ${issue.message}`
}

/**
 * Where a card page may send the buyer back: a page of the origin that asks (a caller without
 * Origin, a server: one of allowedOrigins), never a host a request names. The URL is read as a
 * browser reads it (WHATWG) and forwarded in that canonical form (`href`), so the provider gets the
 * URL that was checked. One another parser could read with another host is refused: a backslash,
 * a space or control character (a browser drops or reads them as `/`), user info (even empty), or
 * an authority whose host or port a browser rewrites (`%2E`, `127.1`, `https:host` without `//`).
 */
export function checkReturnUrl(raw: string, asking: string | null, allowedOrigins: readonly string[]): { href: string } | { problem: string } {
  const plain = { problem: 'returnUrl: must be an absolute http or https URL written plainly: no backslash, space, control character or user name, and its host as a browser writes it' }
  if (/[\\\x00-\x20\x7f]/.test(raw)) return plain
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return plain
  }
  // The authority as RFC 3986 delimits it, which is how most non-browser libraries read it.
  const authority = /^https?:\/\/([^/?#]*)/i.exec(raw)?.[1]
  const parts = authority === undefined ? null : /^(\[[0-9A-Fa-f:.]+\]|[^@:[\]]+)(?::([0-9]*))?$/.exec(authority)
  if (!parts) return plain
  const [, host, port = ''] = parts
  const defaultPort = url.protocol === 'https:' ? '443' : '80'
  if (host.toLowerCase() !== url.hostname || !(port === url.port || (url.port === '' && (port === '' || port === defaultPort)))) return plain
  if (asking === null ? !allowedOrigins.includes(url.origin) : url.origin !== asking) {
    return { problem: 'returnUrl: must be a page of the origin that asks (one of allowedOrigins)' }
  }
  return { href: url.href }
}
