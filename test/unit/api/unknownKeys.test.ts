// assumed-contract.md: "Unknown extra fields are allowed and ignored." Every answer schema is held
// to it at every level: one valid sample answer each, and for each object in it, an unknown key
// added there must leave the parse successful and its data unchanged.
import { describe, expect, it } from 'vitest'
import * as bankDepositSchemas from '../../../src/api/schemas-bankDeposit'
import * as cardSchemas from '../../../src/api/schemas-card'
import * as cardRateSchemas from '../../../src/api/schemas-cardRate'
import * as commonSchemas from '../../../src/api/schemas-common'
import * as depositSchemas from '../../../src/api/schemas-deposit'
import * as onboardingSchemas from '../../../src/api/schemas-onboarding'
import * as payoutSchemas from '../../../src/api/schemas-payout'
import * as referenceSchemas from '../../../src/api/schemas-reference'

type Schema = { safeParse(input: unknown): { success: boolean; data?: unknown; error?: unknown } }
type Path = Array<string | number>

/** The path of every plain object inside a JSON value (the value itself first), arrays walked through. */
function objectPaths(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectPaths(item, [...path, i]))
  if (value === null || typeof value !== 'object') return []
  return [path, ...Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...path, key]))]
}

/** A deep copy of `value` with `key: extra` added to the object at `path`. */
function withKeyAt(value: unknown, path: Path, key: string, extra: unknown): unknown {
  const copy = structuredClone(value)
  const target = path.reduce<any>((node, step) => node[step], copy)
  target[key] = extra
  return copy
}

// Values of every JSON kind: a key the widget does not know may carry anything.
const EXTRAS: unknown[] = ['2026-11-22T12:00:00Z', 42, true, null, { nested: 'object' }, ['a', 1]]
const KEY = 'unexpectedKey'

/**
 * Asserts that `schema` reads `sample`, and reads it the same once an unknown key is added to any
 * of its objects. `kept` names the objects whose keys are data by contract (bank details: "render
 * every string field that comes back, never drop one"): there the key is kept, the rest unchanged.
 */
function expectUnknownKeysIgnored(schema: Schema, sample: unknown, kept: string[] = []) {
  const plain = schema.safeParse(sample)
  expect(plain.error).toBeUndefined()
  const paths = objectPaths(sample)
  for (const path of paths) {
    for (const extra of EXTRAS) {
      const where = path.join('.') || '(top level)'
      const expected = kept.includes(path.join('.')) ? withKeyAt(plain.data, path, KEY, extra) : plain.data
      const parsed = schema.safeParse(withKeyAt(sample, path, KEY, extra))
      expect({ where, extra, error: parsed.error }).toEqual({ where, extra, error: undefined })
      expect({ where, extra, data: parsed.data }).toStrictEqual({ where, extra, data: expected })
    }
  }
  return paths.length
}

const A = (n: string) => `0x${n.repeat(40)}`
const H = (n: string) => `0x${n.repeat(64)}`
const DATE = '2026-11-22T12:00:00Z'

// One sample answer per answer schema, with every optional part present (so each object is reached).
const ANSWERS: Record<string, [Schema, unknown, string[]?]> = {
  errorEnvelope: [commonSchemas.errorEnvelope, { error: { code: 'no_route', message: 'No provider can route the pair.' } }],
  depositQuote: [
    depositSchemas.depositQuote,
    {
      provider: 'relay',
      amountIn: '25.50',
      amountOut: '25.31',
      fee: '0.19',
      expiresAt: DATE,
      approval: { token: A('a'), spender: A('b'), amount: '25500000' },
      transaction: { chainId: 8453, to: A('c'), data: '0xdeadbeef', value: '0' },
    },
  ],
  depositStatus: [depositSchemas.depositStatus, { status: 'done', txHashes: { origin: H('1'), delivered: H('2') } }],
  depositSent: [depositSchemas.depositSent, { id: 'dep_kit_1' }],
  walletChallenge: [depositSchemas.walletChallenge, { linked: false, message: 'shop.example wants you to sign in with your Ethereum account:' }],
  walletLinked: [depositSchemas.walletLinked, { linked: true }],
  cardQuote: [
    cardSchemas.cardQuote,
    {
      cryptoAmount: '0.0123',
      cryptoCurrency: 'ETH',
      fiatAmount: '47.10',
      rate: '3829.27',
      providerFee: '2.90',
      ourFee: '0',
      total: '50.00',
      expiresAt: DATE,
      environment: 'sandbox',
    },
  ],
  cardLimits: [cardSchemas.cardLimits, { fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '20', max: '5000', environment: 'sandbox' }],
  cardKycToken: [cardSchemas.cardKycToken, { token: 'kyc_123', environment: 'sandbox' }],
  cardPurchase: [cardSchemas.cardPurchase, { id: 'cp_1', redirectUrl: 'https://card.example/pay/cp_1', environment: 'sandbox' }],
  cardStatus: [
    cardSchemas.cardStatus,
    { id: 'cp_1', status: 'completed', environment: 'sandbox', cryptoAmount: '0.0123', cryptoCurrency: 'ETH', txHash: H('3'), reason: 'none' },
  ],
  cardRate: [
    cardRateSchemas.cardRate,
    { side: 'buy', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', fiatAmount: '50.00', cryptoAmount: '0.0123', rate: '3829.27' },
  ],
  fiatOnboard: [onboardingSchemas.fiatOnboard, { accountId: 'acc_1', walletId: 'wal_1', kycStatus: 'approved' }],
  fiatAccount: [
    onboardingSchemas.fiatAccount,
    {
      id: 'va_1',
      details: { iban: 'DE89370400440532013000', bankName: 'Sandbox Bank', swiftCode: 'SBXBDEFF', accountName: 'Ada', reference: 'REF-1' },
      asset: 'USDC',
      applicationFeeBps: 100,
    },
    ['details'],
  ],
  fiatStatus: [onboardingSchemas.fiatStatus, { status: 'funded', deliveredAmount: '99.00', asset: 'USDC', cryptoCurrency: 'USDC' }],
  payoutQuote: [
    payoutSchemas.payoutQuote,
    {
      quoteId: 'q_1',
      cryptoAmount: '100',
      fiatAmount: '91.75',
      rate: '0.92',
      rail: 'sepa_instant',
      estimatedSettlement: 'instant',
      providerFee: '0.25',
      ourFee: '0',
      expiresAt: DATE,
    },
  ],
  payout: [payoutSchemas.payout, { id: 'po_1', depositAddress: A('d'), depositAmount: '100', chain: 8453, status: 'pending', expiresAt: DATE }],
  payoutStatus: [
    payoutSchemas.payoutStatus,
    {
      id: 'po_1',
      status: 'returned',
      fiatAmount: '91.75',
      fiatCurrency: 'EUR',
      rail: 'sepa_instant',
      bankReference: 'BR-1',
      depositTxHash: H('4'),
      reason: 'account closed',
      updatedAt: DATE,
    },
  ],
  bankDeposit: [
    bankDepositSchemas.bankDeposit,
    {
      id: 'bd_1',
      details: { reference: 'REF-2', iban: 'DE89370400440532013000', bic: 'SBXBDEFF', beneficiaryBank: 'Sandbox Bank' },
      rail: 'sepa_instant',
      expiresAt: DATE,
      status: 'awaiting_funds',
    },
    ['details'],
  ],
  bankDepositStatus: [
    bankDepositSchemas.bankDepositStatus,
    {
      id: 'bd_1',
      status: 'returned',
      fiatAmount: '0.50',
      cryptoAmount: '0',
      cryptoCurrency: 'USDC',
      settlementTxHash: H('5'),
      reason: 'under the rail minimum',
      updatedAt: DATE,
    },
  ],
  limits: [
    referenceSchemas.limits,
    {
      limits: [
        { currency: 'EUR', rail: 'sepa_instant', direction: 'both', max: '100000.00', min: '1.00', settlement: 'instant' },
        { currency: 'USD', rail: 'wire', direction: 'payout', max: null, min: null, settlement: 't+0' },
      ],
    },
  ],
  paymentMethods: [
    referenceSchemas.paymentMethods,
    {
      countries: {
        DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true },
        US: { currency: 'USD', bank_deposit: false, virtual_account: true, card: true },
      },
    },
  ],
}

// Exports of the schema modules that are not answers: requests, building blocks, value lists.
const NOT_ANSWERS = new Set([
  'decimalString',
  'address',
  'hash',
  'hex',
  'isoDate',
  'depositEndpoint',
  'depositQuoteRequest',
  'depositStatusRequest',
  'cardQuoteRequest',
  'cardPurchaseRequest',
  'fiatOnboardRequest',
  'feeBps',
  'bankDetails',
  'bankDepositDetails',
  'limitEntry',
])

const MODULES = [commonSchemas, depositSchemas, cardSchemas, cardRateSchemas, onboardingSchemas, payoutSchemas, bankDepositSchemas, referenceSchemas]

describe('unknown keys in an answer are ignored, at every level', () => {
  it('every answer schema of src/api/schemas-*.ts has a sample here', () => {
    const schemas = MODULES.flatMap((module) => Object.entries(module)).filter(([, value]) => typeof value === 'object' && value !== null && '_zod' in value)
    const answers = schemas.map(([name]) => name).filter((name) => !NOT_ANSWERS.has(name))
    expect(answers.sort()).toEqual(Object.keys(ANSWERS).sort())
  })

  it.each(Object.entries(ANSWERS))('%s', (_, [schema, sample, kept]) => {
    expect(expectUnknownKeysIgnored(schema, sample, kept)).toBeGreaterThan(0)
  })

  it('a key inside countries that is not a country code is not offered as a country', () => {
    const answer = {
      countries: { DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true }, updatedAt: DATE, de: { bank_deposit: true } },
    }
    expect(referenceSchemas.paymentMethods.parse(answer)).toStrictEqual({ countries: { DE: answer.countries.DE } })
    // JSON.parse makes `__proto__` an own key: it is no country either, and the result keeps its prototype.
    const hostile = JSON.parse(
      '{"countries":{"__proto__":{"bank_deposit":true},"constructor":{"bank_deposit":true},"DE":{"bank_deposit":false,"virtual_account":true,"card":true}}}',
    )
    const parsed = referenceSchemas.paymentMethods.parse(hostile)
    expect(Object.keys(parsed.countries)).toEqual(['DE'])
    expect(Object.getPrototypeOf(parsed.countries)).toBe(Object.prototype)
  })

  it('a listed country with a mistyped indicator is still refused (a field the widget relies on)', () => {
    expect(referenceSchemas.paymentMethods.safeParse({ countries: { DE: { bank_deposit: 'yes', virtual_account: true, card: true } } }).success).toBe(false)
  })
})

describe('the walker', () => {
  it('finds every object, inside arrays too, and adds the key only where asked', () => {
    const value = { a: { b: [{ c: 1 }, 2] }, d: null }
    expect(objectPaths(value)).toEqual([[], ['a'], ['a', 'b', 0]])
    expect(withKeyAt(value, ['a', 'b', 0], 'k', 'v')).toEqual({ a: { b: [{ c: 1, k: 'v' }, 2] }, d: null })
    expect(value).toEqual({ a: { b: [{ c: 1 }, 2] }, d: null })
  })
})
