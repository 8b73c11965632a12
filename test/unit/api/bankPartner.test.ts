// Issues 17 and 18: the one-off bank deposit, bank payout and reference-data answers parsed
// exactly per the contract (decimal strings, known statuses), and the requests sent through the
// partner's backend with exactly the documented fields.
import { describe, expect, it } from 'vitest'
import { createBankDeposit, getBankDepositStatus } from '../../../src/api/bankDeposit'
import { detailRows } from '../../../src/lib/bank'
import { createPartnerHttp } from '../../../src/api/partnerHttp'
import { createPayout, getPayoutStatus, quotePayout } from '../../../src/api/payout'
import { getCardRate, getLimits, getPaymentMethods } from '../../../src/api/reference'
import { offersBankDeposit } from '../../../src/lib/status/bankDeposit'
import { bankDeposit, bankDepositStatus } from '../../../src/api/schemas-bankDeposit'
import { cardRate } from '../../../src/api/schemas-cardRate'
import { payout, payoutQuote, payoutStatus } from '../../../src/api/schemas-payout'
import { limits, paymentMethods } from '../../../src/api/schemas-reference'
import { ApiError, PartnerUnreachableError, ResponseShapeError } from '../../../src/errors/ApiError'

const HASH = `0x${'ab'.repeat(32)}`
const ADDRESS = `0x${'12'.repeat(20)}`

const deposit = {
  id: 'bd_1',
  details: {
    iban: 'DE89370400440532013000',
    bic: 'SBXBDEFFXXX',
    bankName: 'Sandbox Bank AG',
    accountName: 'Sandbox',
    reference: 'SBX-ABC123',
    extra: { nested: true },
  },
  rail: 'sepa_instant',
  expiresAt: '2026-11-24T12:00:00Z',
  status: 'awaiting_funds',
}
const quote = {
  quoteId: 'q_1',
  cryptoAmount: '100.00',
  fiatAmount: '91.55',
  rate: '0.92',
  rail: 'sepa_instant',
  estimatedSettlement: 'instant',
  providerFee: '0.25',
  ourFee: '0',
  expiresAt: '2026-11-24T14:00:00Z',
}
const created = { id: 'po_1', depositAddress: ADDRESS, depositAmount: '100.00', chain: 8453, status: 'pending', expiresAt: '2026-11-24T14:00:00Z' }

function recording(body: unknown, status = 200) {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
  }) as unknown as typeof globalThis.fetch
  return { calls, http: createPartnerHttp({ base: 'https://shop.example/api/', token: 'tok', fetch }) }
}
const bodyOf = (init: RequestInit) => JSON.parse(init.body as string)

describe('response schemas accept the contract', () => {
  it('a one-off deposit, its details kept whole (every string shown, other values kept)', () => {
    const parsed = bankDeposit.parse(deposit)
    expect(parsed.details.reference).toBe('SBX-ABC123')
    expect(detailRows(parsed.details)).toEqual([
      ['accountName', 'Sandbox'],
      ['iban', 'DE89370400440532013000'],
      ['bic', 'SBXBDEFFXXX'],
      ['bankName', 'Sandbox Bank AG'],
    ])
    expect(detailRows({ beneficiaryBank: 'X', reference: 'R', accountNumber: '12345678', sortCode: '040004', empty: '' })).toEqual([
      ['sortCode', '040004'],
      ['accountNumber', '12345678'],
      ['beneficiaryBank', 'X'],
    ])
  })

  it.each(['awaiting_funds', 'received', 'converting', 'settled', 'returned', 'expired'])('deposit status %s', (status) => {
    expect(bankDepositStatus.parse({ id: 'bd_1', status }).status).toBe(status)
  })

  it('a settled deposit with what arrived, what was delivered and in which asset', () => {
    const settled = {
      id: 'bd_1',
      status: 'settled',
      fiatAmount: '99.50',
      cryptoAmount: '108.152173',
      cryptoCurrency: 'EURC',
      settlementTxHash: HASH,
      updatedAt: '2026-11-24T12:01:00Z',
    }
    expect(bankDepositStatus.parse(settled)).toEqual(settled)
    expect(bankDepositStatus.parse({ id: 'bd_1', status: 'returned', reason: 'below_minimum' }).reason).toBe('below_minimum')
  })

  it('a payout quote, a payout and every payout status', () => {
    expect(payoutQuote.parse(quote)).toEqual(quote)
    expect(payout.parse(created)).toEqual(created)
    for (const status of ['pending', 'converting', 'sent', 'settled', 'rejected', 'returned']) {
      expect(
        payoutStatus.parse({ id: 'po_1', status, fiatCurrency: 'EUR', rail: 'sepa_instant', bankReference: 'REF', updatedAt: '2026-11-24T12:00:00Z' }).status,
      ).toBe(status)
    }
    expect(payoutStatus.parse({ id: 'po_1', status: 'returned', depositTxHash: HASH, fiatAmount: '91.55', reason: 'account_closed' }).reason).toBe(
      'account_closed',
    )
  })

  it('limits with null bounds, a card rate, and the assumed payment methods with extra keys', () => {
    const answer = { limits: [{ currency: 'EUR', rail: 'sepa', direction: 'payout', max: null, min: null, settlement: 't+1' }] }
    expect(limits.parse(answer)).toEqual(answer)
    const rate = { side: 'buy', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', fiatAmount: '100', cryptoAmount: '0.032', rate: '3100.5' }
    expect(cardRate.parse(rate)).toEqual(rate)
    const methods = paymentMethods.parse({
      countries: { DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true, bank_payout: true, crypto_atm: true } },
      version: 2,
    })
    expect(methods).toEqual({ countries: { DE: { currency: 'EUR', bank_deposit: true, virtual_account: true, card: true, bank_payout: true } } })
    expect(offersBankDeposit(methods, 'de')).toBe(true)
    expect(offersBankDeposit({ countries: { US: { bank_deposit: false, virtual_account: true, card: true } } }, 'US')).toBe(false)
    expect(offersBankDeposit(methods, 'FR')).toBe(false)
  })
})

describe('response schemas refuse what breaks the contract', () => {
  it('money as a JSON number (a float) is refused everywhere', () => {
    expect(bankDepositStatus.safeParse({ id: 'bd_1', status: 'settled', fiatAmount: 99.5 }).success).toBe(false)
    expect(payoutQuote.safeParse({ ...quote, cryptoAmount: 100.1 }).success).toBe(false)
    expect(payout.safeParse({ ...created, depositAmount: 100 }).success).toBe(false)
    expect(limits.safeParse({ limits: [{ currency: 'EUR', rail: 'sepa', direction: 'both', max: 100000, min: null, settlement: 'instant' }] }).success).toBe(
      false,
    )
    expect(cardRate.safeParse({ side: 'buy', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', fiatAmount: '100', cryptoAmount: 0.032, rate: '3100' }).success).toBe(
      false,
    )
  })

  it('decimal strings only: no exponent, sign or comma', () => {
    for (const bad of ['1e3', '-5', '1,5', '', ' 1']) expect(payoutQuote.safeParse({ ...quote, fiatAmount: bad }).success, bad).toBe(false)
  })

  it('an unknown status is refused', () => {
    expect(bankDeposit.safeParse({ ...deposit, status: 'pending' }).success).toBe(false)
    expect(bankDepositStatus.safeParse({ id: 'bd_1', status: 'done' }).success).toBe(false)
    expect(payoutStatus.safeParse({ id: 'po_1', status: 'completed' }).success).toBe(false)
    expect(payout.safeParse({ ...created, status: 'awaiting_funds' }).success).toBe(false)
    expect(limits.safeParse({ limits: [{ currency: 'EUR', rail: 'sepa', direction: 'in', max: null, min: null, settlement: 'instant' }] }).success).toBe(false)
  })

  it('details without a reference, a deposit address that is not one, a chain as a string, a bad hash', () => {
    expect(bankDeposit.safeParse({ ...deposit, details: { iban: 'DE89370400440532013000' } }).success).toBe(false)
    expect(payout.safeParse({ ...created, depositAddress: 'not-an-address' }).success).toBe(false)
    expect(payout.safeParse({ ...created, chain: '8453' }).success).toBe(false)
    expect(payout.safeParse({ ...created, chain: 8453.5 }).success).toBe(false)
    expect(bankDepositStatus.safeParse({ id: 'bd_1', status: 'settled', settlementTxHash: 'javascript:alert(1)' }).success).toBe(false)
  })

  it('a null bound must be there as null: a missing one is not "no limit"', () => {
    expect(limits.safeParse({ limits: [{ currency: 'EUR', rail: 'sepa', direction: 'both', max: null, settlement: 'instant' }] }).success).toBe(false)
  })
})

describe('requests through the partner backend', () => {
  it('creates a deposit with exactly the documented fields; the reference is the idempotency key, sent as given', async () => {
    const { calls, http } = recording(deposit)
    const request = { accountId: 'acc_1', walletId: 'w_1', fiatCurrency: 'EUR', fiatAmount: '100.00', reference: 'order-42' }
    const first = await createBankDeposit(http, request)
    const retry = await createBankDeposit(http, request)
    expect(retry).toEqual(first)
    expect(calls.map((c) => [c.url, c.init.method])).toEqual([
      ['https://shop.example/api/bank/deposit', 'POST'],
      ['https://shop.example/api/bank/deposit', 'POST'],
    ])
    expect(bodyOf(calls[0]!.init)).toEqual(request)
    expect(calls[1]!.init.body).toBe(calls[0]!.init.body)
    expect(new Headers(calls[0]!.init.headers).get('Authorization')).toBe('Bearer tok')
    expect(calls[0]!.init.credentials).toBe('omit')
  })

  it('leaves the reference out when there is none', async () => {
    const { calls, http } = recording(deposit)
    await createBankDeposit(http, { accountId: 'a', walletId: 'w', fiatCurrency: 'EUR', fiatAmount: '5' })
    expect(Object.keys(bodyOf(calls[0]!.init))).toEqual(['accountId', 'walletId', 'fiatCurrency', 'fiatAmount'])
  })

  it('follows a deposit and a payout by id', async () => {
    const a = recording({ id: 'bd_1', status: 'received', fiatAmount: '100.00' })
    expect((await getBankDepositStatus(a.http, 'bd_1')).status).toBe('received')
    expect([a.calls[0]!.url, bodyOf(a.calls[0]!.init)]).toEqual(['https://shop.example/api/bank/deposit/status', { id: 'bd_1' }])
    const b = recording({ id: 'po_1', status: 'sent' })
    expect((await getPayoutStatus(b.http, 'po_1')).status).toBe('sent')
    expect([b.calls[0]!.url, bodyOf(b.calls[0]!.init)]).toEqual(['https://shop.example/api/bank/payout/status', { id: 'po_1' }])
  })

  it('quotes a payout with one amount, never both, and the rail only when forced', async () => {
    const { calls, http } = recording(quote)
    await quotePayout(http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', cryptoAmount: '100' })
    await quotePayout(http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '90', rail: 'sepa' })
    expect(bodyOf(calls[0]!.init)).toEqual({ cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', cryptoAmount: '100' })
    expect(bodyOf(calls[1]!.init)).toEqual({ cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '90', rail: 'sepa' })
    expect(calls[0]!.url).toBe('https://shop.example/api/bank/payout/quote')
  })

  it('creates a payout with the beneficiary as built, purpose and reference only when given', async () => {
    const { calls, http } = recording(created)
    const beneficiary = { schema: 'evm' as const, name: 'Me', address: ADDRESS }
    await createPayout(http, { quoteId: 'q_1', accountId: 'acc_1', beneficiary, reference: 'payout-7' })
    await createPayout(http, { quoteId: 'q_1', accountId: 'acc_1', beneficiary, purpose: 'salary' })
    expect(bodyOf(calls[0]!.init)).toEqual({ quoteId: 'q_1', accountId: 'acc_1', beneficiary, reference: 'payout-7' })
    expect(bodyOf(calls[1]!.init)).toEqual({ quoteId: 'q_1', accountId: 'acc_1', beneficiary, purpose: 'salary' })
  })

  it('reads reference data with GET and a query of only what was given', async () => {
    const a = recording({ limits: [] })
    await getLimits(a.http)
    await getLimits(a.http, 'EUR')
    expect(a.calls.map((c) => [c.init.method, c.url])).toEqual([
      ['GET', 'https://shop.example/api/limits'],
      ['GET', 'https://shop.example/api/limits?currency=EUR'],
    ])
    expect(a.calls[0]!.init.body).toBeUndefined()
    const b = recording({ side: 'buy', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', fiatAmount: '100', cryptoAmount: '0.032', rate: '3100' })
    await getCardRate(b.http, { fiatCurrency: 'EUR', cryptoCurrency: 'ETH', amount: '100' })
    expect(b.calls[0]!.url).toBe('https://shop.example/api/card/rate?fiatCurrency=EUR&cryptoCurrency=ETH&amount=100')
    const c = recording({ countries: {} })
    await getPaymentMethods(c.http)
    expect(c.calls[0]!.url).toBe('https://shop.example/api/payment-methods')
  })

  it('errors: the envelope as ApiError, a wrong shape as ResponseShapeError naming the field, no answer as PartnerUnreachableError', async () => {
    const refused = recording({ error: { code: 'quote_expired', message: 'quote is past expiresAt' } }, 409)
    await expect(
      createPayout(refused.http, { quoteId: 'q', accountId: 'a', beneficiary: { schema: 'evm', name: 'x', address: ADDRESS } }),
    ).rejects.toMatchObject({
      status: 409,
      code: 'quote_expired',
    })
    await expect(getLimits(refused.http)).rejects.toBeInstanceOf(ApiError)
    const float = recording({ id: 'bd_1', status: 'settled', fiatAmount: 99.5 })
    const shape = await getBankDepositStatus(float.http, 'bd_1').catch((e) => e)
    expect(shape).toBeInstanceOf(ResponseShapeError)
    expect(shape.path).toBe('fiatAmount')
    const down = createPartnerHttp({
      base: 'https://shop.example',
      fetch: (async () => {
        throw new TypeError('Failed to fetch')
      }) as unknown as typeof fetch,
    })
    await expect(getPaymentMethods(down)).rejects.toBeInstanceOf(PartnerUnreachableError)
  })

  it('a call stopped on purpose is not reported as the partner being down', async () => {
    const controller = new AbortController()
    const fetch = ((_url: string, init: RequestInit) =>
      new Promise((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )) as unknown as typeof globalThis.fetch
    const pending = getBankDepositStatus(createPartnerHttp({ base: 'https://shop.example', fetch }), 'bd_1', controller.signal)
    controller.abort()
    const error = await pending.catch((e) => e)
    expect(error).not.toBeInstanceOf(PartnerUnreachableError)
    expect(error.name).toBe('AbortError')
  })
})
