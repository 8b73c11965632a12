// Issue 31, item 3: the card payout's calls on the partner's backend (partner-api.md "Card payout";
// creation and the card page session as assumed-contract.md fixes them). Requests carry exactly
// the contract's fields; answers are parsed with the contract's schemas, and refused when they
// break it (money as a float, a missing field, a bad last 4, a number where a string is due).
import { describe, expect, it } from 'vitest'
import { cardPayoutSchemas, cardPayoutSession, cardPayoutStatus, createCardPayout, quoteCardPayout } from '../../../src/api/cardPayout'
import { createPartnerHttp } from '../../../src/api/partnerHttp'
import { cardPayout, cardPayoutQuote, cardPayoutStatusRecord, cardSession } from '../../../src/api/schemas-cardPayout'
import { ApiError, ResponseShapeError } from '../../../src/errors/ApiError'
import { validateRedirect } from '../../../src/lib/redirect'

const ADDRESS = `0x${'12'.repeat(20)}`
const HASH = `0x${'ab'.repeat(32)}`
const DATE = '2026-11-24T12:15:00Z'

const quote = { quoteId: 'cq_1', cryptoAmount: '110.336957', fiatAmount: '100.00', rate: '0.92', providerFee: '1.01', ourFee: '0.50', expiresAt: DATE }
const session = { id: 'cs_1', url: 'https://pay.cards.test/card-payout-page?id=cs_1' }
const created = {
  id: 'cpo_1',
  depositAddress: ADDRESS,
  depositAmount: '110.336957',
  chain: 8453,
  status: 'pending',
  expiresAt: DATE,
  card: { brand: 'visa', last4: '4242' },
}
const record = { id: 'cpo_1', status: 'settled', fiatAmount: '45.27', fiatCurrency: 'EUR', depositTxHash: HASH, updatedAt: DATE }

/** A partner backend that answers `answer` to every call, and keeps what each call sent: [method, url, body]. */
function recording(answer: unknown, status = 200) {
  const sent: unknown[][] = []
  const inits: RequestInit[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push([init.method, url, JSON.parse(init.body as string)])
    inits.push(init)
    return Response.json(answer, { status })
  }) as unknown as typeof globalThis.fetch
  return { sent, inits, http: createPartnerHttp({ base: 'https://shop.example/api/', token: 'tok', fetch }) }
}
const without = (value: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key))

describe('card payout answers the contract describes are read', () => {
  it('a quote, a card page session, a payout with its card', () => {
    expect(cardPayoutQuote.parse(quote)).toEqual(quote)
    expect(cardSession.parse(session)).toEqual(session)
    expect(cardPayout.parse(created)).toEqual(created)
    expect(cardPayout.parse({ ...created, card: { brand: 'American Express', last4: '0005' } }).card).toEqual({ brand: 'American Express', last4: '0005' })
  })

  it.each(['pending', 'converting', 'sent', 'settled', 'rejected', 'returned'])('status record %s, optional fields absent', (status) => {
    expect(cardPayoutStatusRecord.parse({ id: 'cpo_1', status, fiatCurrency: 'GBP', updatedAt: DATE })).toEqual({
      id: 'cpo_1',
      status,
      fiatCurrency: 'GBP',
      updatedAt: DATE,
    })
  })

  it('a status record with what landed, the funding transaction and a reason', () => {
    expect(cardPayoutStatusRecord.parse(record)).toEqual(record)
    expect(cardPayoutStatusRecord.parse({ ...record, status: 'returned', reason: 'card_closed' }).reason).toBe('card_closed')
  })

  it('unknown keys are ignored at every level, the card included', () => {
    const extra = { unexpectedKey: { nested: 1 } }
    expect(cardPayoutQuote.parse({ ...quote, ...extra, rail: 'card' })).toStrictEqual(quote)
    expect(cardSession.parse({ ...session, ...extra })).toStrictEqual(session)
    expect(cardPayout.parse({ ...created, ...extra, card: { ...created.card, ...extra, expiry: '12/30' } })).toStrictEqual(created)
    expect(cardPayoutStatusRecord.parse({ ...record, ...extra, refundTxHash: HASH })).toStrictEqual(record)
  })
})

describe('card payout answers that break the contract are refused', () => {
  it('money as a JSON number (a float or an integer), anywhere', () => {
    for (const field of ['cryptoAmount', 'fiatAmount', 'rate', 'providerFee', 'ourFee']) {
      expect(cardPayoutQuote.safeParse({ ...quote, [field]: 100.5 }).success, field).toBe(false)
    }
    expect(cardPayout.safeParse({ ...created, depositAmount: 110.336957 }).success).toBe(false)
    expect(cardPayout.safeParse({ ...created, depositAmount: 110 }).success).toBe(false)
    expect(cardPayoutStatusRecord.safeParse({ ...record, fiatAmount: 45.27 }).success).toBe(false)
  })

  it('decimal strings only: no exponent, sign, comma, space or empty string', () => {
    for (const bad of ['1e3', '-5', '1,5', '', ' 1', '1.', '.5', 'NaN']) {
      expect(cardPayoutQuote.safeParse({ ...quote, fiatAmount: bad }).success, bad).toBe(false)
      expect(cardPayout.safeParse({ ...created, depositAmount: bad }).success, bad).toBe(false)
      expect(cardPayoutStatusRecord.safeParse({ ...record, fiatAmount: bad }).success, bad).toBe(false)
    }
  })

  it.each([
    ['quote', cardPayoutQuote, quote],
    ['session', cardSession, session],
    ['payout', cardPayout, created],
    ['status record', cardPayoutStatusRecord, { id: 'cpo_1', status: 'pending', fiatCurrency: 'EUR', updatedAt: DATE }],
  ] as const)('a %s missing any one of its required fields', (_, schema, sample) => {
    for (const key of Object.keys(sample)) expect(schema.safeParse(without(sample, key)).success, key).toBe(false)
  })

  it('the card: last 4 exactly four digits, the brand a short printable name; both present', () => {
    for (const last4 of ['424', '42424', 'abcd', '42 2', '', '٤٢٤٢', 4242]) {
      expect(cardPayout.safeParse({ ...created, card: { brand: 'visa', last4 } }).success, String(last4)).toBe(false)
    }
    for (const brand of ['', 'visa\n<img src=x>', '\u202evisa', 'v'.repeat(33), 7]) {
      expect(cardPayout.safeParse({ ...created, card: { brand, last4: '4242' } }).success, JSON.stringify(brand)).toBe(false)
    }
    expect(cardPayout.safeParse({ ...created, card: { last4: '4242' } }).success).toBe(false)
    expect(cardPayout.safeParse({ ...created, card: { brand: 'visa' } }).success).toBe(false)
    expect(cardPayout.safeParse({ ...created, card: '4242' }).success).toBe(false)
  })

  it('a number where a string is due, a string where a number is due', () => {
    expect(cardPayoutQuote.safeParse({ ...quote, quoteId: 1 }).success).toBe(false)
    expect(cardSession.safeParse({ ...session, id: 1 }).success).toBe(false)
    expect(cardPayout.safeParse({ ...created, id: 1 }).success).toBe(false)
    expect(cardPayoutStatusRecord.safeParse({ ...record, id: 7 }).success).toBe(false)
    expect(cardPayoutStatusRecord.safeParse({ ...record, fiatCurrency: 978 }).success).toBe(false)
    expect(cardPayout.safeParse({ ...created, chain: '8453' }).success).toBe(false)
  })

  it('an address that is not one, a chain that is no chain id, an unknown status, a bad hash or date', () => {
    expect(cardPayout.safeParse({ ...created, depositAddress: 'not-an-address' }).success).toBe(false)
    expect(cardPayout.safeParse({ ...created, depositAddress: `${ADDRESS}00` }).success).toBe(false)
    for (const chain of [8453.5, 0, -1]) expect(cardPayout.safeParse({ ...created, chain }).success, String(chain)).toBe(false)
    expect(cardPayout.safeParse({ ...created, status: 'awaiting_funds' }).success).toBe(false)
    expect(cardPayoutStatusRecord.safeParse({ ...record, status: 'completed' }).success).toBe(false)
    expect(cardPayoutStatusRecord.safeParse({ ...record, depositTxHash: 'javascript:alert(1)' }).success).toBe(false)
    expect(cardPayoutQuote.safeParse({ ...quote, expiresAt: 'soon' }).success).toBe(false)
    expect(cardPayoutStatusRecord.safeParse({ ...record, updatedAt: 'yesterday' }).success).toBe(false)
  })

  it("a session url is handed on as sent, for validateRedirect to hold to cardHosts as the card purchase's", () => {
    for (const url of ['javascript:alert(1)', 'https://card-page.evil.example/pay', 'http://pay.cards.test/p', '/card-payout-page?id=cs_1']) {
      expect(cardSession.parse({ ...session, url }).url).toBe(url)
      expect(validateRedirect(url, ['pay.cards.test']).ok, url).toBe(false)
    }
    expect(validateRedirect(cardSession.parse(session).url, ['pay.cards.test'])).toEqual({ ok: true, url: session.url })
    expect(cardSession.safeParse({ ...session, url: '' }).success).toBe(false)
    expect(cardSession.safeParse({ ...session, url: ['https://pay.cards.test/'] }).success).toBe(false)
    expect(cardSession.safeParse({ ...session, id: '' }).success).toBe(false)
  })
})

describe('requests through the partner backend carry exactly the contract fields', () => {
  it('quotes with one amount: what the user sends, or what must land on the card', async () => {
    const { sent, inits, http } = recording(quote)
    expect(await quoteCardPayout(http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', cryptoAmount: '100' })).toEqual(quote)
    await quoteCardPayout(http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'GBP', fiatAmount: '90.00' })
    expect(sent).toEqual([
      ['POST', 'https://shop.example/api/card/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', cryptoAmount: '100' }],
      ['POST', 'https://shop.example/api/card/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'GBP', fiatAmount: '90.00' }],
    ])
    expect(new Headers(inits[0]!.headers).get('Authorization')).toBe('Bearer tok')
    expect(inits[0]!.credentials).toBe('omit')
  })

  it('a quote request never carries both amounts, nor a field the card payout does not define', async () => {
    const { sent, http } = recording(quote)
    const sloppy = {
      cryptoCurrency: 'USDC',
      chain: 8453,
      fiatCurrency: 'EUR',
      cryptoAmount: '100',
      fiatAmount: '90',
      country: 'DE',
      rail: 'sepa_instant',
      walletAddress: ADDRESS,
    }
    await quoteCardPayout(http, sloppy as never)
    expect(sent[0]![2]).toEqual({ cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', cryptoAmount: '100' })
  })

  it('opens the card page session with the returnUrl alone', async () => {
    const { sent, http } = recording(session)
    expect(await cardPayoutSession(http, { returnUrl: 'https://shop.example/widget?flow=cardPayout', cardNumber: '4242' } as never)).toEqual(session)
    expect(sent).toEqual([['POST', 'https://shop.example/api/card/payout/card-session', { returnUrl: 'https://shop.example/widget?flow=cardPayout' }]])
  })

  it('creates from the quote and the session; the reference (idempotency key) only when given, sent as given', async () => {
    const { sent, inits, http } = recording(created)
    const request = { quoteId: 'cq_1', accountId: 'acc_1', cardSession: 'cs_1', reference: 'card-cashout-1' }
    expect(await createCardPayout(http, request)).toEqual(created)
    await createCardPayout(http, request)
    await createCardPayout(http, {
      quoteId: 'cq_1',
      accountId: 'acc_1',
      cardSession: 'cs_1',
      beneficiary: { name: 'x' },
      cardNumber: '4242424242424242',
    } as never)
    expect(sent).toEqual([
      ['POST', 'https://shop.example/api/card/payout', request],
      ['POST', 'https://shop.example/api/card/payout', request],
      ['POST', 'https://shop.example/api/card/payout', { quoteId: 'cq_1', accountId: 'acc_1', cardSession: 'cs_1' }],
    ])
    expect(inits[1]!.body).toBe(inits[0]!.body)
  })

  it('follows a payout by id', async () => {
    const { sent, http } = recording(record)
    expect(await cardPayoutStatus(http, 'cpo_1')).toEqual(record)
    expect(sent).toEqual([['POST', 'https://shop.example/api/card/payout/status', { id: 'cpo_1' }]])
  })

  it('a malformed answer is a ResponseShapeError naming the field; an error envelope an ApiError', async () => {
    const cases: Array<[string, (http: ReturnType<typeof recording>['http']) => Promise<unknown>, unknown, string]> = [
      [
        'quote',
        (http) => quoteCardPayout(http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', fiatAmount: '100' }),
        { ...quote, cryptoAmount: 110.34 },
        'cryptoAmount',
      ],
      ['session', (http) => cardPayoutSession(http, { returnUrl: 'https://shop.example/' }), without(session, 'url'), 'url'],
      [
        'payout',
        (http) => createCardPayout(http, { quoteId: 'cq_1', accountId: 'acc_1', cardSession: 'cs_1' }),
        { ...created, card: { brand: 'visa', last4: 4242 } },
        'card.last4',
      ],
      ['status', (http) => cardPayoutStatus(http, 'cpo_1'), { ...record, fiatAmount: 45.27 }, 'fiatAmount'],
    ]
    for (const [name, call, answer, path] of cases) {
      const error = await call(recording(answer).http).catch((e) => e)
      expect(error, name).toBeInstanceOf(ResponseShapeError)
      expect((error as ResponseShapeError).path, name).toBe(path)
    }
    const refused = recording({ error: { code: 'no_route', message: 'Card payouts settle in EUR, GBP and USD only.' } }, 422)
    const error = await quoteCardPayout(refused.http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'BRL', fiatAmount: '100' }).catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 422, code: 'no_route' })
  })

  it('the schemas load on demand, with every answer schema the calls use', async () => {
    const module = (await cardPayoutSchemas.ready()) as Record<string, unknown>
    expect(module.cardPayoutQuote).toBe(cardPayoutQuote)
    expect(module.cardSession).toBe(cardSession)
    expect(module.cardPayout).toBe(cardPayout)
    expect(module.cardPayoutStatusRecord).toBe(cardPayoutStatusRecord)
  })
})
