// @vitest-environment node
// Text the store cannot keep (issue 37, finding 8): Postgres text refuses a NUL, and a lone UTF-16
// surrogate reaches it (from PGlite or pg) as U+FFFD, another id. Both are valid JSON and passed
// the schemas; a NUL answered 500 kit_error and wrote to the partner's error log. Any string of the
// input, body or query, holding either is now 400 invalid_field naming the field, and nothing else.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type PaymentStore, createPartnerHandler, openPaymentStore } from '../../../src/server/index'
import { recordPayments } from '../helpers/paymentStore'

const SHOP = 'https://shop.example'
let store: PaymentStore
beforeAll(async () => {
  store = await openPaymentStore()
  // What the fields below would name, had they no NUL: the user's own, so that every check runs.
  await recordPayments(store, 'nul-user', [
    ['card', 'x'],
    ['bankDeposit', 'x'],
    ['payout', 'x'],
    ['cardPayout', 'x'],
    ['deposit', 'x'],
  ])
  await store.bindCardSession('nul-user', 'x')
}, 60_000)
afterAll(() => store?.close())

const everything = async () => [
  ...(await store.db.query('SELECT kind, id, user_id, details FROM stablecoin_widget.payments ORDER BY kind, id')).rows,
  ...(await store.db.query('SELECT what, value, user_id FROM stablecoin_widget.bindings ORDER BY what, value')).rows,
  ...(await store.db.query('SELECT id FROM stablecoin_widget.quotes ORDER BY id')).rows,
]

/** Route, body with `bad` in the field, and the field's name. */
const FIELDS: Array<[path: string, body: (bad: string) => Record<string, unknown>, field: string]> = [
  ['/card/status', (bad) => ({ id: bad }), 'id'],
  ['/bank/deposit/status', (bad) => ({ id: bad }), 'id'],
  ['/bank/payout/status', (bad) => ({ id: bad }), 'id'],
  ['/card/payout/status', (bad) => ({ id: bad }), 'id'],
  ['/deposit/status', (bad) => ({ id: bad }), 'id'],
  ['/bank/deposit', (bad) => ({ accountId: bad, walletId: 'w', fiatCurrency: 'EUR', fiatAmount: '10' }), 'accountId'],
  ['/bank/deposit', (bad) => ({ accountId: 'a-nul', walletId: bad, fiatCurrency: 'EUR', fiatAmount: '10' }), 'walletId'],
  ['/card/payout', (bad) => ({ quoteId: 'q', accountId: 'a-nul', cardSession: bad }), 'cardSession'],
  // Beyond the eight: the payout's quote and account, a reference, a nested beneficiary field.
  ['/bank/payout', (bad) => ({ quoteId: bad, accountId: 'a-nul', beneficiary: { name: 'Ada', schema: 'bank_sepa' } }), 'quoteId'],
  ['/bank/payout', (bad) => ({ quoteId: 'q', accountId: bad, beneficiary: { name: 'Ada', schema: 'bank_sepa' } }), 'accountId'],
  ['/bank/deposit', (bad) => ({ accountId: 'a-nul', walletId: 'w', fiatCurrency: 'EUR', fiatAmount: '10', reference: bad }), 'reference'],
  ['/bank/payout', (bad) => ({ quoteId: 'q', accountId: 'a-nul', beneficiary: { name: 'Ada', schema: 'bank_sepa', iban: bad } }), 'beneficiary.iban'],
  [
    '/bank/payout',
    (bad) => ({ quoteId: 'q', accountId: 'a-nul', beneficiary: { name: 'Ada', schema: 'bank_us', beneficiaryAddress: { city: bad } } }),
    'beneficiary.beneficiaryAddress.city',
  ],
]
const BAD = { NUL: 'x\u0000', 'a lone high surrogate': 'x\ud800', 'a lone low surrogate': '\udc00x' }

function kit() {
  const log = vi.fn()
  const fetch = vi.fn(async () => Response.json({ id: 'made', status: 'pending' })) as unknown as typeof globalThis.fetch
  const handle = createPartnerHandler({
    apiBase: 'https://api.example',
    apiKey: 'sk_test_key',
    allowedOrigins: [SHOP],
    authenticate: (token) => token,
    allowAnonymous: true,
    store,
    fetch,
    log,
  })
  const send = async (path: string, body?: unknown) => {
    const res = await handle(
      new Request(`${SHOP}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Origin: SHOP, Authorization: 'Bearer nul-user', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )
    return { status: res.status, body: await res.json() }
  }
  return { log, fetch, send }
}

const refused = (field: string) => ({
  status: 400,
  body: { error: { code: 'invalid_field', message: `${field}: must not contain a NUL character or a lone surrogate` } },
})

describe('text the store cannot keep is refused as a field, never a failure of the kit', () => {
  for (const [what, bad] of Object.entries(BAD)) {
    it.each(FIELDS)(`${what}: %s, in %#`, async (path, body, field) => {
      const { log, fetch, send } = kit()
      const before = await everything()
      expect(await send(path, body(bad))).toEqual(refused(field))
      expect(log).not.toHaveBeenCalled()
      expect(fetch).not.toHaveBeenCalled()
      expect(await everything()).toEqual(before)
    })
  }

  it('in a query too, and in a key', async () => {
    const { log, fetch, send } = kit()
    expect(await send('/limits?currency=EU%00')).toEqual(refused('currency'))
    expect(await send('/card/status', { ['i\u0000d']: 'x' })).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field', message: 'i\u0000d: must not contain a NUL character or a lone surrogate' } },
    })
    expect(log).not.toHaveBeenCalled()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('a surrogate pair (an emoji) is text like any other', async () => {
    const { send } = kit()
    expect(await send('/card/status', { id: 'x\ud83d\ude00' })).toMatchObject({ status: 404, body: { error: { code: 'payment_not_found' } } })
  })
})
