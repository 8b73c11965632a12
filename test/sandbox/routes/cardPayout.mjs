// Card payout on the partner path (permission `card-payouts`): the quote and status as
// partner-api.md documents them, and the creation assumed-contract.md fixes: a hosted card page
// session (the card that receives the money is entered on the provider's page, served here at
// /card-payout-page on the host of the card purchase's page, so the registry's cardHosts names
// it), then creation from a quote and that session. Funding, the watcher, the six statuses and the
// controls (/__sandbox/card/payout/*) are the bank payout's ledger (payout.mjs): an underfunded
// payout converts what arrived and pays out less. Test controls on /__sandbox/control:
// `hostileCardPayout` (one broken answer, as `hostilePayout`), `cardPayoutPage: "cancel"` (the next
// card page answers cancelled by itself), `cardPayoutRedirect` (one session url off the page's host).
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { HttpError, invalid } from '../http.mjs'
import { parseStrict } from './bankDeposit.mjs'
import { hostileCardUrl } from './card.mjs'
import { checkSource, checkWindow, cryptoDecimal, fiatDecimal, idRequest, parseUnitsSafe, text } from './payout.mjs'
import { USDC_RATES, cents, createKeyring, fiat, toFiat, toUsdc, usdc } from './reference.mjs'

/** Card payouts settle in these only (any other currency: 422 no_route); the provider's flat minimum fee. */
const CARD_PAYOUT = { EUR: { flatFee: '0.50' }, GBP: { flatFee: '0.40' }, USD: { flatFee: '0.50' } }
const PROVIDER_FEE_BPS = 100n // 1 %, or the flat fee when more
const WINDOW = { label: 'card payout', min: '1.00', max: '10000.00' }

const quoteRequest = z.strictObject({
  cryptoCurrency: z.string().min(1),
  chain: z.number().int('must be a chain id'),
  fiatCurrency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code like "EUR"'),
  cryptoAmount: cryptoDecimal.optional(),
  fiatAmount: fiatDecimal.optional(),
})
const httpUrl = z.string().refine((value) => {
  try {
    const { protocol, username, password } = new URL(value)
    return (protocol === 'https:' || protocol === 'http:') && !username && !password
  } catch {
    return false
  }
}, 'must be an http or https URL without a user name or password')
const sessionRequest = z.strictObject({ returnUrl: httpUrl })
// With a quoteId, or without one the fields a quote takes ("a payout created without quoteId is
// repriced at execution": partner-api.md; docs/assumptions.md), never both.
const PRICED = ['cryptoCurrency', 'chain', 'fiatCurrency', 'cryptoAmount', 'fiatAmount']
const payoutRequest = z
  .strictObject({
    quoteId: text(128).optional(),
    accountId: text(128),
    cardSession: text(128),
    reference: text(64).optional(),
    ...quoteRequest.partial().shape,
  })
  .superRefine((input, ctx) => {
    if (input.quoteId !== undefined) {
      for (const field of PRICED)
        if (input[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'not with a quoteId (the quote names it)' })
      return
    }
    const parsed = quoteRequest.safeParse(Object.fromEntries(PRICED.map((f) => [f, input[f]])))
    if (!parsed.success || input.cryptoCurrency === undefined || input.chain === undefined || input.fiatCurrency === undefined)
      ctx.addIssue({ code: 'custom', path: ['quoteId'], message: 'required, or without a quote cryptoCurrency, chain, fiatCurrency and one amount' })
    else if ((input.cryptoAmount === undefined) === (input.fiatAmount === undefined))
      ctx.addIssue({ code: 'custom', path: ['cryptoAmount'], message: 'send cryptoAmount or fiatAmount, exactly one of the two' })
  })

function luhnValid(digits) {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}
const brandOf = (digits) => (/^4/.test(digits) ? 'visa' : /^(5[1-5]|2[2-7])/.test(digits) ? 'mastercard' : /^3[47]/.test(digits) ? 'amex' : 'card')

/** ledger: payout.mjs's (one watcher, statuses, controls); publicBase: the card page's origin. */
export function cardPayoutRoutes({ ledger, publicBase }) {
  const defaults = { cardPayoutQuoteTtlSeconds: 900, cardPayoutOurFeeBps: 50n, cardPayoutPage: undefined, cardPayoutRedirect: undefined }
  let settings = { ...defaults }
  const keys = createKeyring()
  const quotes = new Map()
  const sessions = new Map() // cs_… → { id, returnUrl, state: open | ready | cancelled, card?, payout? }
  let byReference = new Map()

  /** Fiat cents for USDC units: converted, less the provider's fee (1 %, at least its flat fee) and ours. */
  function price(units, currency, rate, ourFeeBps = settings.cardPayoutOurFeeBps) {
    const gross = toFiat(units, rate)
    const percent = (gross * PROVIDER_FEE_BPS) / 10_000n
    const flat = cents(CARD_PAYOUT[currency].flatFee)
    const providerFee = percent > flat ? percent : flat
    const ourFee = (gross * ourFeeBps) / 10_000n
    return { providerFee, ourFee, arrives: gross - providerFee - ourFee }
  }

  function quote({ body, req }) {
    keys.check(req, 'card-payouts')
    const input = parseStrict(quoteRequest, body)
    const { units, rate, p } = priceOf(input)
    const q = {
      quoteId: `cq_${randomBytes(8).toString('hex')}`,
      cryptoAmount: usdc(units),
      fiatAmount: fiat(p.arrives),
      rate: usdc(rate),
      providerFee: fiat(p.providerFee),
      ourFee: fiat(p.ourFee),
      expiresAt: new Date(Date.now() + settings.cardPayoutQuoteTtlSeconds * 1000).toISOString(),
    }
    quotes.set(q.quoteId, {
      quoteId: q.quoteId,
      units,
      rate,
      ourFeeBps: settings.cardPayoutOurFeeBps,
      fiatCurrency: input.fiatCurrency,
      expiresAt: q.expiresAt,
      expiresAtMs: Date.parse(q.expiresAt),
    })
    return { body: ledger.hostile('card', 'quote.', q, { units, fiatAmount: input.fiatAmount }) }
  }

  /** What a quote's request costs now: the USDC units, the rate and the fees (checked: source, currency, window). */
  function priceOf(request) {
    const input = checkSource(request)
    if (!CARD_PAYOUT[input.fiatCurrency]) throw new HttpError(422, 'no_route', `Card payouts settle in EUR, GBP and USD only, not ${input.fiatCurrency}.`)
    const rate = USDC_RATES[input.fiatCurrency]
    let units
    if (input.cryptoAmount !== undefined) units = parseUnitsSafe(input.cryptoAmount)
    else {
      // Solved backwards: the least USDC that lands fiatAmount on the card. What lands moves by at
      // most a cent per cent converted, so the first amount at or above it lands it exactly.
      const target = cents(input.fiatAmount)
      let [low, high] = [0n, toUsdc(target * 2n + 1000n, rate, true)]
      while (high - low > 1n) {
        const mid = (low + high) / 2n
        if (price(mid, input.fiatCurrency, rate).arrives >= target) high = mid
        else low = mid
      }
      units = high
    }
    const p = price(units, input.fiatCurrency, rate)
    checkWindow(p.arrives, input, WINDOW)
    return { units, rate, p }
  }

  /** The price a creation without a quote goes by: today's, held for as long as a quote would be; what arrives converts on arrival. */
  function unquoted(input) {
    const { units, rate } = priceOf(Object.fromEntries(PRICED.filter((f) => input[f] !== undefined).map((f) => [f, input[f]])))
    const expiresAt = new Date(Date.now() + settings.cardPayoutQuoteTtlSeconds * 1000).toISOString()
    return { units, rate, ourFeeBps: settings.cardPayoutOurFeeBps, fiatCurrency: input.fiatCurrency, expiresAt, expiresAtMs: Date.parse(expiresAt) }
  }

  function session({ body, req }) {
    keys.check(req, 'card-payouts')
    const { returnUrl } = parseStrict(sessionRequest, body)
    const id = `cs_${randomBytes(10).toString('hex')}`
    sessions.set(id, { id, returnUrl, state: 'open' })
    const page = `/card-payout-page?id=${id}`
    const url = hostileCardUrl(settings.cardPayoutRedirect, publicBase, page) ?? `${publicBase}${page}`
    settings.cardPayoutRedirect = undefined
    return { body: { id, url } }
  }

  async function create({ body, req }) {
    keys.check(req, 'card-payouts')
    const input = parseStrict(payoutRequest, body)
    if (input.reference !== undefined && byReference.has(input.reference)) return { body: ledger.created(byReference.get(input.reference)) }
    const q = input.quoteId === undefined ? unquoted(input) : quotes.get(input.quoteId)
    if (!q) throw invalid('quoteId', 'no such card payout quote')
    if (Date.now() >= q.expiresAtMs) throw new HttpError(409, 'quote_expired', 'The quote is past its expiresAt: quote again.')
    const cs = sessions.get(input.cardSession)
    ledger.authorise(input.accountId, q.units, () => {
      if (!cs) throw invalid('cardSession', 'no such card session')
      if (cs.state === 'cancelled') throw invalid('cardSession', 'the card page was cancelled')
      if (cs.state !== 'ready') throw invalid('cardSession', 'no card was entered on the card page')
      if (cs.payout) throw invalid('cardSession', 'already used by a payout')
    })
    cs.payout = true // taken before the await: one session, one payout
    const { fiatCurrency: currency, rate } = q
    const p = await ledger
      .open({
        kind: 'card',
        id: `cpo_${randomBytes(8).toString('hex')}`,
        depositUnits: q.units,
        accountId: input.accountId,
        fiatCurrency: currency,
        expiresAt: q.expiresAt,
        answer: { card: cs.card },
        // An underfunded payout converts what arrived (at the rate on arrival, the same here).
        net: (units) => price(units, currency, rate, q.ourFeeBps).arrives,
        min: cents(WINDOW.min),
        cost: () => toUsdc(cents(CARD_PAYOUT[currency].flatFee), rate, true),
      })
      .catch((error) => {
        cs.payout = undefined // nothing was created: the session is still the buyer's
        throw error
      })
    cs.payout = p.id
    if (input.reference !== undefined) byReference.set(input.reference, p)
    return { body: ledger.created(p) }
  }

  // --- The provider's hosted card page: the buyer enters the card, or cancels; either way back to returnUrl. ---
  const back = (cs) => {
    const url = new URL(cs.returnUrl)
    url.searchParams.set('cardSession', cs.id)
    url.searchParams.set('result', cs.state === 'ready' ? 'ok' : 'cancelled')
    return { redirect: url.href }
  }
  const sessionOf = (query) => {
    const cs = sessions.get(query.get('id') ?? '')
    if (!cs) throw new HttpError(404, 'not_found', 'No such card session.')
    return cs
  }
  const page = (
    cs,
    problem = '',
  ) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox card page: card payout</title><link rel="icon" href="data:,"><style>body{font-family:system-ui,sans-serif;max-width:420px;margin:2rem auto;padding:0 1rem}button{min-height:44px;margin:4px 0;width:100%;font:inherit}label{display:block;margin-top:8px}input{width:100%;min-height:40px;font:inherit}</style></head>
<body><main><h1>Sandbox card page</h1><p>Sandbox: no card is paid. Enter the card that receives your payout.</p>${problem ? `<p role="alert">${problem}</p>` : ''}
<form method="post" action="/card-payout-page/save?id=${cs.id}"><label>Card number<input name="cardNumber" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"></label><button type="submit">Use this card</button></form>
<form method="post" action="/card-payout-page/cancel?id=${cs.id}"><button type="submit">Cancel and go back</button></form></main></body></html>`

  return {
    routes: {
      'POST /v1/card/payout/quote': quote,
      'POST /v1/card/payout/card-session': session,
      'POST /v1/card/payout': create,
      'POST /v1/card/payout/status': ({ body, req }) => {
        keys.check(req, 'card-payouts')
        return { body: ledger.record(ledger.find(parseStrict(idRequest, body).id, 'card')) }
      },
      'GET /card-payout-page': ({ query }) => {
        const cs = sessions.get(query.get('id') ?? '')
        if (!cs) return { status: 404, html: '<!doctype html><html lang="en"><title>Not found</title><p>No such card session.</p></html>' }
        if (settings.cardPayoutPage === 'cancel' && cs.state === 'open') {
          settings.cardPayoutPage = undefined
          cs.state = 'cancelled'
        }
        return cs.state === 'open' ? { html: page(cs) } : back(cs)
      },
      'POST /card-payout-page/save': ({ query, body }) => {
        const cs = sessionOf(query)
        if (cs.state !== 'open') return back(cs)
        const digits = (new URLSearchParams(typeof body === 'string' ? body : '').get('cardNumber') ?? '').replace(/[\s-]/g, '')
        if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits))
          return { status: 400, html: page(cs, 'That is not a valid card number (its check digit is wrong). Check it and try again.') }
        Object.assign(cs, { state: 'ready', card: { brand: brandOf(digits), last4: digits.slice(-4) } })
        return back(cs)
      },
      'POST /card-payout-page/cancel': ({ query }) => {
        const cs = sessionOf(query)
        if (cs.state === 'open') cs.state = 'cancelled'
        return back(cs)
      },
    },
    control: {
      set(body) {
        keys.set(body)
        if (Number.isFinite(body.cardPayoutQuoteTtlSeconds)) settings.cardPayoutQuoteTtlSeconds = body.cardPayoutQuoteTtlSeconds
        if (Number.isInteger(body.cardPayoutOurFeeBps) && body.cardPayoutOurFeeBps >= 0) settings.cardPayoutOurFeeBps = BigInt(body.cardPayoutOurFeeBps)
        if (body.cardPayoutPage !== undefined) {
          if (body.cardPayoutPage !== 'cancel') throw new HttpError(400, 'invalid_request', 'cardPayoutPage: "cancel" (the next card page answers cancelled)')
          settings.cardPayoutPage = body.cardPayoutPage
        }
        if (body.cardPayoutRedirect !== undefined) settings.cardPayoutRedirect = body.cardPayoutRedirect
      },
      reset() {
        keys.reset()
        settings = { ...defaults }
        byReference = new Map()
      },
      routes: ledger.controls('/__sandbox/card/payout', 'card', quotes),
    },
  }
}
