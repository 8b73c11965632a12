// Issue 31: the sandbox's card payout (permission `card-payouts`) as partner-api.md documents its
// quote and status, and assumed-contract.md its creation: a hosted card page session on a host the
// registry's cardHosts names (as the card purchase's page), creation from a quote and a session
// whose card was entered, funding by one real ERC-20 transfer on anvil watched like a bank
// payout's, the six statuses, and an underfunded payout that pays out less instead of failing.
import { parseUnits, type Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { type BankStack, KEY, ORIGIN, payoutStackForFile } from './bankStack'
import { expectHostileCreateOnce, expectHostileQuoteOnce, expectOrphanedSecondTransfer, expectRejectedRefund, fund, settled } from './payoutFunding'

let s: BankStack
let accountId: string
let wallet: Address
payoutStackForFile(5, (ready) => ({ s, wallet, accountId } = ready), 60_000)

const SEPA = { name: 'Ada Lovelace', schema: 'bank_sepa', accountType: 'individual', firstName: 'Ada', lastName: 'Lovelace', IBAN: 'DE89370400440532013000' }
const RETURN = `${ORIGIN}/widget.html?flow=cardPayout&partner=sandbox`
const quote = (extra: Record<string, unknown> = {}) =>
  s.v1('/card/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', fiatAmount: '100.00', ...extra })
const session = (returnUrl: unknown = RETURN) => s.v1('/card/payout/card-session', { returnUrl })
const page = (path: string, init: RequestInit = {}) => fetch(`${s.base}${path}`, { redirect: 'manual', ...init })
/** The buyer enters a card on the hosted page (a url-encoded form post, as the browser sends it). */
const enterCard = (url: string, cardNumber = '4242 4242 4242 4242') => {
  const id = new URL(url).searchParams.get('id')!
  return page(`/card-payout-page/save?id=${id}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber }).toString(),
  })
}
async function readySession() {
  const cs = (await session()).body
  expect((await enterCard(cs.url)).status).toBe(303)
  return cs.id as string
}
async function create(extra: Record<string, unknown> = {}, quoteExtra: Record<string, unknown> = {}) {
  const q = (await quote(quoteExtra)).body
  return s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession: await readySession(), ...extra })
}
const status = async (id: string) => (await s.v1('/card/payout/status', { id })).body

describe('card payout quote', () => {
  it('solves a fiatAmount backwards: what lands on the card after both fees, no rail, shorter than a bank quote', async () => {
    const { status: code, body } = await quote()
    expect(code).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['cryptoAmount', 'expiresAt', 'fiatAmount', 'ourFee', 'providerFee', 'quoteId', 'rate'])
    // 101.51 EUR converted at 0.92 (110.336957 USDC, rounded up); 1 % provider fee (1.01) and 0.5 % ours (0.50).
    expect(body).toMatchObject({ fiatAmount: '100.00', cryptoAmount: '110.336957', rate: '0.92', providerFee: '1.01', ourFee: '0.50' })
    const minutes = (Date.parse(body.expiresAt) - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(14.9)
    expect(minutes).toBeLessThanOrEqual(15)
  })

  it("prices a cryptoAmount forwards, with the provider's flat minimum fee", async () => {
    // 50 USDC at 0.79 = 39.50 GBP, less 0.40 (flat, above 1 %) and 0.19.
    expect((await quote({ fiatAmount: undefined, cryptoAmount: '50', fiatCurrency: 'GBP' })).body).toMatchObject({
      cryptoAmount: '50',
      fiatAmount: '38.91',
      providerFee: '0.40',
      ourFee: '0.19',
    })
    expect((await quote({ fiatCurrency: 'USD' })).body).toMatchObject({ fiatAmount: '100.00', rate: '1' })
  })

  it('ourFee is 0 on an account without a markup (cardPayoutOurFeeBps: 0), and more lands on the card', async () => {
    await s.control('/control', { cardPayoutOurFeeBps: 0 })
    expect((await quote({ fiatAmount: undefined, cryptoAmount: '50', fiatCurrency: 'GBP' })).body).toMatchObject({
      fiatAmount: '39.10',
      providerFee: '0.40',
      ourFee: '0.00',
    })
  })

  it.each(['MXN', 'BRL', 'NGN', 'CHF', 'XYZ'])('%s: 422 no_route (EUR, GBP and USD only)', async (fiatCurrency) => {
    expect(await quote({ fiatCurrency })).toMatchObject({ status: 422, body: { error: { code: 'no_route' } } })
  })

  it('refuses both amounts or neither, a malformed currency, a field it does not define, another chain or asset', async () => {
    const refused = async (extra: Record<string, unknown>) => (await quote(extra)).body.error
    expect(await refused({ cryptoAmount: '10' })).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^cryptoAmount: /) })
    expect(await refused({ fiatAmount: undefined })).toMatchObject({ code: 'invalid_request' })
    expect(await refused({ fiatCurrency: 'eur' })).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^fiatCurrency: /) })
    expect(await refused({ country: 'DE' })).toMatchObject({ code: 'invalid_request', message: 'country: not a field of this request' })
    expect(await refused({ rail: 'visa_direct' })).toMatchObject({ code: 'invalid_request', message: 'rail: not a field of this request' })
    expect(await refused({ cryptoCurrency: 'DAI' })).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^cryptoCurrency: /) })
    expect(await quote({ chain: 42161 })).toMatchObject({ status: 403, body: { error: { code: 'chain_not_allowed' } } })
    expect(await refused({ fiatAmount: '0.50' })).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^fiatAmount: /) })
  })

  it('every card payout call needs the card-payouts permission (403), and the key (401)', async () => {
    const q = (await quote()).body
    const cs = (await session()).body
    const created = (await create()).body
    await s.control('/control', { keyPermissions: ['bank', 'bank-payouts'] })
    const denied = { status: 403, body: { error: { code: 'permission_denied' } } }
    expect(await quote()).toMatchObject(denied)
    expect(await session()).toMatchObject(denied)
    expect(await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession: cs.id })).toMatchObject(denied)
    expect(await s.v1('/card/payout/status', { id: created.id })).toMatchObject(denied)
    await s.control('/control', { keyPermissions: ['card-payouts'] })
    expect((await s.v1('/card/payout/status', { id: created.id })).status).toBe(200)
    expect(await s.v1('/card/payout/quote', {}, { 'Content-Type': 'application/json', Authorization: `Basic ${KEY}` })).toMatchObject({
      status: 401,
      body: { error: { code: 'unauthorized' } },
    })
  })
})

describe('the hosted card page session', () => {
  it('answers a cs_ id and a page on a host the registry names in cardHosts, as the card purchase does', async () => {
    const { status: code, body } = await session()
    expect(code).toBe(200)
    expect(body.id).toMatch(/^cs_[0-9a-f]{16,}$/)
    const url = new URL(body.url)
    expect((s.stack.config as { cardHosts: string[] }).cardHosts).toContain(url.host)
    expect(url.protocol).toBe('http:')
    const html = await (await page(url.pathname + url.search)).text()
    expect(html).toContain('<form')
    expect(html).toContain('Card number')
  })

  it('a card entered returns to returnUrl with cardSession and result=ok, keeping its own query', async () => {
    const cs = (await session()).body
    const res = await enterCard(cs.url)
    expect(res.status).toBe(303)
    const back = new URL(res.headers.get('location')!)
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/widget.html`)
    expect(Object.fromEntries(back.searchParams)).toEqual({ flow: 'cardPayout', partner: 'sandbox', cardSession: cs.id, result: 'ok' })
  })

  it('cancelled on the page: back with result=cancelled, and the session cannot create a payout', async () => {
    const cs = (await session()).body
    const res = await page(`/card-payout-page/cancel?id=${cs.id}`, { method: 'POST' })
    expect(new URL(res.headers.get('location')!).searchParams.get('result')).toBe('cancelled')
    // A card entered after the cancel changes nothing.
    await enterCard(cs.url)
    const q = (await quote()).body
    expect((await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession: cs.id })).body.error).toEqual({
      code: 'invalid_request',
      message: 'cardSession: the card page was cancelled',
    })
  })

  it('the cardPayoutPage control cancels the next page on its own (the provider answers cancelled), once', async () => {
    await s.control('/control', { cardPayoutPage: 'cancel' })
    const cs = (await session()).body
    const res = await page(new URL(cs.url).pathname + new URL(cs.url).search)
    expect(res.status).toBe(303)
    expect(Object.fromEntries(new URL(res.headers.get('location')!).searchParams)).toMatchObject({ cardSession: cs.id, result: 'cancelled' })
    const next = (await session()).body
    expect((await page(new URL(next.url).pathname + new URL(next.url).search)).status).toBe(200)
    expect(await s.control('/control', { cardPayoutPage: 'explode' })).toMatchObject({ status: 400 })
  })

  it('cardPayoutRedirect: one session url off the hosts cardHosts names (as cardRedirect for the purchase), then honest again', async () => {
    const hosts = (s.stack.config as { cardHosts: string[] }).cardHosts
    await s.control('/control', { cardPayoutRedirect: 'foreign' })
    const hostile = (await session()).body
    expect(new URL(hostile.url).host).toBe('card-page.evil.example')
    expect(hosts).not.toContain(new URL(hostile.url).host)
    expect(hosts).toContain(new URL((await session()).body.url).host)
  })

  it('a card number that fails its check is refused on the page, and nothing returns', async () => {
    const cs = (await session()).body
    const res = await enterCard(cs.url, '4242 4242 4242 4241')
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('not a valid card number')
    const q = (await quote()).body
    expect((await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession: cs.id })).body.error).toEqual({
      code: 'invalid_request',
      message: 'cardSession: no card was entered on the card page',
    })
  })

  it('refuses a returnUrl that is not http(s), has a user name, or is missing; an unknown page is 404', async () => {
    for (const returnUrl of ['javascript:alert(1)', 'http://user:pass@127.0.0.1:5173/', 'not a url', 42]) {
      expect((await session(returnUrl)).body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^returnUrl: /) })
    }
    expect((await s.v1('/card/payout/card-session', {})).body.error).toEqual({ code: 'invalid_request', message: 'returnUrl: required' })
    expect((await page('/card-payout-page?id=cs_nope')).status).toBe(404)
  })
})

describe('card payout creation', () => {
  it('answers a fresh deposit address, the exact amount, pending, and the card it pays (brand, last 4)', async () => {
    const q = (await quote()).body
    const { status: code, body } = await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession: await readySession() })
    expect(code).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['card', 'chain', 'depositAddress', 'depositAmount', 'expiresAt', 'id', 'status'])
    expect(body).toMatchObject({
      chain: 8453,
      status: 'pending',
      depositAmount: q.cryptoAmount,
      expiresAt: q.expiresAt,
      card: { brand: 'visa', last4: '4242' },
    })
    expect(body.id).toMatch(/^cpo_/)
    const record = await status(body.id)
    expect(Object.keys(record).sort()).toEqual(['fiatCurrency', 'id', 'status', 'updatedAt'])
    expect(record).toMatchObject({ id: body.id, status: 'pending', fiatCurrency: 'EUR' })
    // A card payout is not a bank payout, nor the other way round.
    expect(await s.v1('/bank/payout/status', { id: body.id })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    expect(await s.v1('/card/payout/status', { id: 'cpo_none' })).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
  })

  it('a mastercard is named as one', async () => {
    const cs = (await session()).body
    await enterCard(cs.url, '5555 5555 5555 4444')
    const q = (await quote()).body
    expect((await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession: cs.id })).body.card).toEqual({ brand: 'mastercard', last4: '4444' })
  })

  it('a repeat with the same reference returns the original payout; without one a session serves one payout', async () => {
    const q = (await quote()).body
    const cardSession = await readySession()
    const first = (await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession, reference: 'card-cashout-1' })).body
    expect((await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession, reference: 'card-cashout-1' })).body).toEqual(first)
    expect((await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession })).body.error).toEqual({
      code: 'invalid_request',
      message: 'cardSession: already used by a payout',
    })
  })

  it('refuses a bank quote, an expired quote (409), an unknown account (404), an unknown session, a field it does not define', async () => {
    const bankQuote = (await s.v1('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '20' })).body
    const cardSession = await readySession()
    expect((await s.v1('/card/payout', { quoteId: bankQuote.quoteId, accountId, cardSession })).body.error).toEqual({
      code: 'invalid_request',
      message: 'quoteId: no such card payout quote',
    })
    const q = (await quote()).body
    await s.control('/card/payout/expire-quote', { quoteId: q.quoteId })
    expect(await s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession })).toMatchObject({
      status: 409,
      body: { error: { code: 'quote_expired' } },
    })
    expect(await create({ accountId: 'acc_none' })).toMatchObject({ status: 404, body: { error: { code: 'account_not_found' } } })
    expect((await create({ cardSession: 'cs_none' })).body.error).toEqual({ code: 'invalid_request', message: 'cardSession: no such card session' })
    expect((await create({ cardNumber: '4242424242424242' })).body.error).toEqual({
      code: 'invalid_request',
      message: 'cardNumber: not a field of this request',
    })
    expect((await create({ cardSession: undefined })).body.error).toEqual({ code: 'invalid_request', message: 'cardSession: required' })
  })
})

describe('funding and statuses, with real transfers on anvil', () => {
  const funded = async (amount?: (depositUnits: bigint) => bigint, quoteExtra = {}) => fund(s, wallet, (await create({}, quoteExtra)).body, status, amount)
  /** Funded while the sandbox holds payouts at converting (until a control moves them on). */
  const heldFunded = async () => {
    await s.control('/control', { payoutHold: true })
    return funded()
  }

  it('pending → converting (the transfer seen) → sent → settled; sent is not final', async () => {
    const { created, hash, seen } = await heldFunded()
    expect(seen).toMatchObject({ status: 'converting', depositTxHash: hash, fiatAmount: '100.00', fiatCurrency: 'EUR' })
    expect(await s.balance(s.srcPublic, s.config.payout.token, created.depositAddress)).toBe(parseUnits(created.depositAmount, 6))
    expect((await s.control('/card/payout/advance', { id: created.id })).body.status).toBe('sent')
    expect((await status(created.id)).status).toBe('sent')
    expect((await s.control('/card/payout/settle', { id: created.id })).body.status).toBe('settled')
    expect(await status(created.id)).toMatchObject({ status: 'settled', fiatAmount: '100.00', depositTxHash: hash })
  })

  it('on the short timer it goes on to settled by itself', async () => {
    const { created } = await funded()
    expect(await settled(status, created.id)).toMatchObject({ fiatAmount: '100.00' })
  })

  it('underfunded: what arrived is converted and paid out, fiatAmount lower than quoted, not a failure', async () => {
    // 100 USDC quoted (90.62 EUR after 0.92 and 0.46); half of it sent: 46.00 EUR less 0.50 (flat) and 0.23.
    const { created, seen } = await funded((units) => units / 2n, { fiatAmount: undefined, cryptoAmount: '100' })
    expect(created.depositAmount).toBe('100')
    // Seen on the short timer: converting, or already past it; never rejected.
    expect(seen.fiatAmount).toBe('45.27')
    expect(['converting', 'sent', 'settled']).toContain(seen.status)
    expect(await settled(status, created.id)).toMatchObject({ fiatAmount: '45.27' })
  })

  it('a second transfer to a spent address leaves money without an order', async () => {
    await expectOrphanedSecondTransfer(s, 'card', wallet, await heldFunded(), status)
  })

  it('rejected before it left: its reason, and what arrived goes back in full on chain', async () => {
    const { created } = await heldFunded()
    await expectRejectedRefund(s, 'card', wallet, created, status, 'card_not_eligible')
  })

  it('returned after sent: the value back as USDC minus the cost, with its reason', async () => {
    const { created } = await heldFunded()
    await s.control('/card/payout/advance', { id: created.id })
    const before = await s.balance(s.srcPublic, s.config.payout.token, wallet)
    const answer = (await s.control('/card/payout/return', { id: created.id, reason: 'card_closed', cost: '1' })).body
    expect(answer).toMatchObject({ status: 'returned', reason: 'card_closed' })
    expect((await s.balance(s.srcPublic, s.config.payout.token, wallet)) - before).toBe(parseUnits(created.depositAmount, 6) - 1_000_000n)
  })

  it('the fund control makes the same real transfer from the account wallet; card controls refuse a bank payout', async () => {
    await s.control('/control', { payoutHold: true })
    const created = (await create()).body
    expect((await s.control('/card/payout/fund', { id: created.id })).body).toMatchObject({
      status: 'converting',
      depositTxHash: expect.stringMatching(/^0x/),
      internal: { sender: wallet },
    })
    const bankQuote = (await s.v1('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', fiatAmount: '20' })).body
    const bank = (
      await s.v1('/bank/payout', {
        quoteId: bankQuote.quoteId,
        accountId,
        beneficiary: SEPA,
      })
    ).body
    expect((await s.control('/card/payout/advance', { id: bank.id })).status).toBe(404)
  })
})

describe('hostile card payout answers (hostileCardPayout), each once', () => {
  it('quote.crypto: a quote that asks ten times the crypto the buyer asked to send', async () => {
    await expectHostileQuoteOnce(s, 'hostileCardPayout', 'quote.crypto', quote, { fiatAmount: undefined, cryptoAmount: '100' }, 'cryptoAmount', ['1000', '100'])
  })

  it('quote.fiat: less lands on the card than the buyer asked', async () => {
    await expectHostileQuoteOnce(s, 'hostileCardPayout', 'quote.fiat', quote, {}, 'fiatAmount', ['99.99', '100.00'])
  })

  it('create.amount: a depositAmount that is not the quote cryptoAmount (the payout keeps the quoted amount)', async () => {
    const q = (await quote({ fiatAmount: undefined, cryptoAmount: '100' })).body
    const cardSession = await readySession()
    await s.control('/control', { hostileCardPayout: 'create.amount' })
    await expectHostileCreateOnce(() => s.v1('/card/payout', { quoteId: q.quoteId, accountId, cardSession, reference: 'hostile-card-1' }))
  })

  it('a bank payout is not touched by it, and an unknown name is refused', async () => {
    await s.control('/control', { hostileCardPayout: 'quote.crypto' })
    expect(
      (await s.v1('/bank/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', country: 'DE', cryptoAmount: '100' })).body.cryptoAmount,
    ).toBe('100')
    expect(await s.control('/control', { hostileCardPayout: 'nope' })).toMatchObject({ status: 400 })
  })
})

// Issue 39, item 21: "A payout created without quoteId is repriced at execution" (partner-api.md).
describe('a card payout created without a quote', () => {
  const priced = { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR' }
  it('is created from the fields a quote takes, and priced when it executes: what arrives converts then', async () => {
    const created = await s.v1('/card/payout', { ...priced, fiatAmount: '100.00', accountId, cardSession: await readySession() })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^cpo_/), status: 'pending', chain: 8453, card: { last4: '4242' } })
    // The least USDC that lands 100.00 EUR at today's price, as a quote would have said.
    expect(created.body.depositAmount).toBe('110.336957')
    const byCrypto = await s.v1('/card/payout', { ...priced, cryptoAmount: '20', accountId, cardSession: await readySession() })
    expect(byCrypto).toMatchObject({ status: 200, body: { depositAmount: '20' } })
  })
  it('refuses a quoteId with the fields of one, neither, both amounts, and a currency cards are not paid out in', async () => {
    const cardSession = await readySession()
    const q = (await quote()).body.quoteId
    const invalid = { status: 400, body: { error: { code: 'invalid_request' } } }
    expect(await s.v1('/card/payout', { quoteId: q, ...priced, fiatAmount: '10', accountId, cardSession })).toMatchObject(invalid)
    expect(await s.v1('/card/payout', { accountId, cardSession })).toMatchObject(invalid)
    expect(await s.v1('/card/payout', { ...priced, fiatAmount: '10', cryptoAmount: '10', accountId, cardSession })).toMatchObject(invalid)
    expect(await s.v1('/card/payout', { ...priced, fiatCurrency: 'BRL', fiatAmount: '10', accountId, cardSession })).toMatchObject({
      status: 422,
      body: { error: { code: 'no_route' } },
    })
    // None of these used up the session.
    expect((await s.v1('/card/payout', { ...priced, fiatAmount: '10', accountId, cardSession })).status).toBe(200)
  })
})
