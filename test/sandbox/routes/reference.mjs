// Reference data on the partner path: GET /v1/limits, GET /v1/card/rate and the assumed
// GET /v1/payment-methods. Also the sandbox's partner key with its permissions (`bank`,
// `bank-payouts`, ...), and the rails, rates and limits the bank deposit and payout modules share.
import { formatUnits, parseUnits } from 'viem'
import { HttpError, invalid } from '../http.mjs'

/** The sandbox partner's API key (the one the partner-backend stand-in forwards with). */
export const SANDBOX_KEY = 'sk_sandbox_partner_key'
export const ALL_PERMISSIONS = ['bank', 'bank-payouts', 'card-payouts', 'virtual-accounts']

/**
 * The key's permissions, changeable by `POST /__sandbox/control {"keyPermissions": ["bank"]}`
 * (reset restores all). Missing, malformed and unknown keys all get the same 401.
 */
export function createKeyring() {
  let permissions = new Set(ALL_PERMISSIONS)
  return {
    check(req, permission) {
      // The scheme is case-insensitive (RFC 9110); the key is not.
      if (/^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1] !== SANDBOX_KEY)
        throw new HttpError(401, 'unauthorized', 'Missing, malformed or unknown key.')
      if (permission && !permissions.has(permission)) throw new HttpError(403, 'permission_denied', `The key lacks the ${permission} permission.`)
    },
    set(body) {
      if (Array.isArray(body.keyPermissions)) permissions = new Set(body.keyPermissions)
    },
    reset() {
      permissions = new Set(ALL_PERMISSIONS)
    },
  }
}

/**
 * Rails: per-transfer window (major unit, null = none), settlement label of GET /v1/limits, the
 * coarse `estimatedSettlement` of a payout quote, the flat provider fee (fiat) of a payout, and
 * the beneficiary schema that a payout on it takes.
 */
export const RAILS = {
  sepa_instant: {
    label: 'SEPA Instant',
    currency: 'EUR',
    direction: 'both',
    min: '1.00',
    max: '100000.00',
    settlement: 'instant',
    estimated: 'instant',
    fee: '0.25',
    schema: 'bank_sepa',
  },
  sepa: { label: 'SEPA', currency: 'EUR', direction: 'payout', min: '1.00', max: null, settlement: 't+1', estimated: 't+1', fee: '0.40', schema: 'bank_sepa' },
  faster_payments: {
    label: 'Faster Payments',
    currency: 'GBP',
    direction: 'both',
    min: '1.00',
    max: '1000000.00',
    settlement: 'instant',
    estimated: 'instant',
    fee: '0.20',
    schema: 'bank_uk',
  },
  ach: {
    label: 'ACH',
    currency: 'USD',
    direction: 'payout',
    min: '1.00',
    max: '100000.00',
    settlement: 't+1..t+3',
    estimated: 't+1',
    fee: '0.50',
    schema: 'bank_us',
  },
  wire: {
    label: 'Wire',
    currency: 'USD',
    direction: 'payout',
    min: '100.00',
    max: null,
    settlement: 't+0',
    estimated: 'same_day',
    fee: '15.00',
    schema: 'bank_us',
  },
  swift: {
    label: 'SWIFT',
    currency: 'USD',
    direction: 'payout',
    min: '100.00',
    max: null,
    settlement: 't+1..t+3',
    estimated: 't+3',
    fee: '25.00',
    schema: 'bank_swift',
  },
  pix: {
    label: 'PIX',
    currency: 'BRL',
    direction: 'both',
    min: '1.00',
    max: '50000.00',
    settlement: 'instant',
    estimated: 'instant',
    fee: '1.00',
    schema: 'bank_br_pix',
  },
  spei: {
    label: 'SPEI',
    currency: 'MXN',
    direction: 'both',
    min: '10.00',
    max: '500000.00',
    settlement: 'under_2h',
    estimated: 'same_day',
    fee: '5.00',
    schema: 'bank_mexico',
  },
  nip: {
    label: 'NIP',
    currency: 'NGN',
    direction: 'payout',
    min: '1000.00',
    max: '10000000.00',
    settlement: 't+0',
    estimated: 'same_day',
    fee: '100.00',
    schema: 'bank_africa',
  },
  // Mobile money in Nigeria (schema momo_africa): dearer than NIP, so a quote names it to get it.
  mobile_money: {
    label: 'Mobile money',
    currency: 'NGN',
    direction: 'payout',
    min: '100.00',
    max: '2000000.00',
    settlement: 'instant',
    estimated: 'instant',
    fee: '150.00',
    schema: 'momo_africa',
  },
  mpesa: {
    label: 'M-Pesa',
    currency: 'KES',
    direction: 'payout',
    min: '10.00',
    max: '250000.00',
    settlement: 'instant',
    estimated: 'instant',
    fee: '15.00',
    schema: 'momo_africa',
  },
  // Stablecoin to a wallet (schema evm): only when the quote forces rail "stablecoin".
  stablecoin: {
    label: 'Stablecoin',
    currency: 'USD',
    direction: 'payout',
    min: '1.00',
    max: null,
    settlement: 'instant',
    estimated: 'instant',
    fee: '0.10',
    schema: 'evm',
    forcedOnly: true,
  },
}

/** Fiat per USDC, in millionths (sandbox prices; the same both ways). */
export const USDC_RATES = { EUR: 920000n, GBP: 790000n, USD: 1000000n, BRL: 5400000n, MXN: 18500000n, NGN: 1550000000n, KES: 129000000n }

const SEPA = ['AT', 'BE', 'DE', 'ES', 'FI', 'FR', 'IE', 'IT', 'NL', 'PT']
/** Payout rails serving a currency in a destination country, cheapest first by the contract's rule. */
export function payoutRails(fiatCurrency, country) {
  if (fiatCurrency === 'EUR' && SEPA.includes(country)) return ['sepa_instant', 'sepa']
  if (fiatCurrency === 'GBP' && country === 'GB') return ['faster_payments']
  if (fiatCurrency === 'USD' && country === 'US') return ['ach', 'wire', 'stablecoin']
  if (fiatCurrency === 'USD') return ['swift', 'stablecoin']
  if (fiatCurrency === 'BRL' && country === 'BR') return ['pix']
  if (fiatCurrency === 'MXN' && country === 'MX') return ['spei']
  if (fiatCurrency === 'NGN' && country === 'NG') return ['nip', 'mobile_money']
  if (fiatCurrency === 'KES' && country === 'KE') return ['mpesa']
  return []
}

/** The one-off deposit rail of a currency (none for USD: open a virtual account instead). */
export const DEPOSIT_RAILS = { EUR: 'sepa_instant', GBP: 'faster_payments', BRL: 'pix', MXN: 'spei' }

/**
 * The assumed shape of GET /v1/payment-methods (the contract does not show it): countries by
 * ISO 3166-1 alpha-2, each with its local currency and one boolean per method. A country that is
 * not listed offers nothing.
 */
const method = (currency, bank_deposit, virtual_account = true, card = true, bank_payout = true, card_payout = ['EUR', 'GBP', 'USD'].includes(currency)) => ({
  currency,
  bank_deposit,
  virtual_account,
  card,
  bank_payout,
  card_payout,
})
export const PAYMENT_METHODS = {
  countries: {
    ...Object.fromEntries(SEPA.map((c) => [c, method('EUR', true)])),
    GB: method('GBP', true),
    BR: method('BRL', true),
    MX: method('MXN', true),
    US: method('USD', false),
    NG: method('NGN', false, false, false),
    KE: method('KES', false, false, false),
  },
}

// Amounts: fiat in cents (2 decimals), USDC in base units (6 decimals).
export const cents = (value) => parseUnits(value, 2)
export const fiat = (c) =>
  formatUnits(c, 2)
    .replace(/^(-?\d+)$/, '$1.00')
    .replace(/\.(\d)$/, '.$10')
export const usdc = (units) => formatUnits(units, 6)
/** Fiat cents bought by USDC units at a rate (floor). */
export const toFiat = (units, rate) => (units * rate) / 10n ** 10n
/** USDC units that buy fiat cents at a rate (floor, or ceil). */
export const toUsdc = (c, rate, up = false) => {
  const n = c * 10n ** 10n
  return up ? (n + rate - 1n) / rate : n / rate
}

// Card corridor (as routes/card.mjs prices it): fiat per ETH in cents, flat minimum fee, 0.5 % ours.
const CARD = { EUR: { rate: 300000n, flatFee: 299n }, USD: { rate: 320000n, flatFee: 349n }, GBP: { rate: 260000n, flatFee: 249n } }

function cardRate(query) {
  const fiatCurrency = query.get('fiatCurrency') ?? ''
  const cryptoCurrency = query.get('cryptoCurrency') ?? ''
  const amount = query.get('amount') ?? ''
  const side = query.get('side') ?? 'buy'
  if (!fiatCurrency) throw invalid('fiatCurrency', 'required')
  if (!cryptoCurrency) throw invalid('cryptoCurrency', 'required')
  if (!amount) throw invalid('amount', 'required')
  if (!/^\d+(\.\d{1,2})?$/.test(amount)) throw invalid('amount', 'must be a decimal string with at most 2 decimals')
  if (side !== 'buy' && side !== 'sell') throw invalid('side', 'must be "buy" or "sell"')
  const market = CARD[fiatCurrency]
  if (!market) throw invalid('fiatCurrency', `${fiatCurrency} is not supported`)
  const eth = cryptoCurrency === 'ETH'
  if (!eth && cryptoCurrency !== 'USDC') throw invalid('cryptoCurrency', `${cryptoCurrency} is not supported (ETH or USDC)`)
  // Fiat per crypto unit, in cents, and the crypto's decimals as shown.
  const rate = eth ? market.rate : (USDC_RATES[fiatCurrency] + 9999n) / 10000n
  const decimals = eth ? 8 : 6
  const total = cents(amount)
  const fees = (c) => {
    const percent = (c * 35n) / 1000n
    return (percent > market.flatFee ? percent : market.flatFee) + (c * 50n) / 10_000n
  }
  // buy: the buyer pays `amount` (fees included) and receives crypto; sell: `amount` arrives after fees.
  const converted = side === 'buy' ? total - fees(total) : total + fees(total)
  const units = converted > 0n ? (converted * 10n ** BigInt(decimals)) / rate : 0n
  return {
    side,
    fiatCurrency,
    cryptoCurrency,
    fiatAmount: fiat(total),
    cryptoAmount: formatUnits(units, decimals),
    rate: fiat(rate),
  }
}

/** GET /v1/virtual-accounts' intended filter and page: currency, rail, active, limit (1 to 100), startingAfter. */
function checkListQuery(query) {
  const currency = query.get('currency')
  if (currency !== null && !/^[A-Z]{3}$/.test(currency)) throw invalid('currency', 'must be an ISO 4217 code like "EUR"')
  if (query.get('rail') === '') throw invalid('rail', 'must not be empty')
  const active = query.get('active')
  if (active !== null && active !== 'true' && active !== 'false') throw invalid('active', 'must be true or false')
  const limit = query.get('limit')
  if (limit !== null && !(/^[0-9]{1,3}$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100))
    throw invalid('limit', 'must be a whole number from 1 to 100')
  if (query.get('startingAfter') === '') throw invalid('startingAfter', 'must be a virtual account id')
}

export function referenceRoutes() {
  const keys = createKeyring()
  return {
    routes: {
      'GET /v1/limits': ({ query, req }) => {
        keys.check(req)
        const currency = query.get('currency')
        if (currency !== null && !/^[A-Z]{3}$/.test(currency)) throw invalid('currency', 'must be an ISO 4217 code like "EUR"')
        const limits = Object.entries(RAILS)
          .filter(([, r]) => currency === null || r.currency === currency)
          .map(([rail, r]) => ({ currency: r.currency, rail, direction: r.direction, max: r.max, min: r.min, settlement: r.settlement }))
        return { body: { limits } }
      },
      'GET /v1/card/rate': ({ query, req }) => (keys.check(req), { body: cardRate(query) }),
      'GET /v1/payment-methods': ({ req }) => (keys.check(req), { body: PAYMENT_METHODS }),
      // The contract: "currently answers 501 not_implemented with no data"; its intended filter and
      // page are checked as it states (400 invalid_request), behind the key and its permission.
      'GET /v1/virtual-accounts': ({ query, req }) => {
        keys.check(req, 'virtual-accounts')
        checkListQuery(query)
        throw new HttpError(501, 'not_implemented', 'Listing virtual accounts is not implemented yet: keep the details returned at creation.')
      },
    },
    control: { set: keys.set, reset: keys.reset },
  }
}
