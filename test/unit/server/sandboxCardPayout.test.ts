// The kit's card payout routes against the sandbox's card payout (test/sandbox/routes/cardPayout.mjs),
// whose /partner paths run the kit's source: the field names and answers agree end to end, and
// one buyer's session and payout are 404 to another, the service never asked.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BankStack, ORIGIN, startBankStack } from '../sandbox/bankStack'

let s: BankStack
beforeAll(async () => {
  s = await startBankStack()
}, 60_000)
afterAll(() => s?.stop())

/** As the widget calls the partner backend, with the sandbox's buyer token `token`. */
const as = (token: string) => async (path: string, body: unknown) => {
  const res = await fetch(`${s.base}/partner${path}`, {
    method: 'POST',
    headers: { Origin: ORIGIN, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: await res.json() }
}
const v1Posts = async (path: string) =>
  ((await (await fetch(`${s.base}/__sandbox/log`)).json()) as Array<{ method: string; path: string }>).filter((e) => e.path === `/v1${path}`).length

it("quote, card page, creation and status through the kit; Bob gets 404 for Alice's session and payout, the service never asked", {
  timeout: 30_000,
}, async () => {
  const alice = as('alice-cp')
  const bob = as('bob-cp')
  const { accountId } = await s.onboard(s.config.accounts[6])
  const quote = await alice('/card/payout/quote', { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', fiatAmount: '100.00' })
  expect(quote).toMatchObject({ status: 200, body: { fiatAmount: '100.00', quoteId: expect.stringMatching(/^cq_/) } })
  const returnUrl = `${ORIGIN}/widget.html?flow=cardPayout&partner=sandbox`
  const session = await alice('/card/payout/card-session', { returnUrl })
  expect(session).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^cs_/) } })
  // The buyer enters a card on the hosted page, which returns to the page that asked.
  const entered = await fetch(`${s.base}/card-payout-page/save?id=${session.body.id}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'cardNumber=4242424242424242',
  })
  expect(entered.headers.get('location')).toContain(`${ORIGIN}/widget.html`)
  const creating = (user: typeof alice, acc: string) => user('/card/payout', { quoteId: quote.body.quoteId, accountId: acc, cardSession: session.body.id })
  const before = await v1Posts('/card/payout')
  expect(await creating(bob, 'acc_bob_cp')).toMatchObject({ status: 404, body: { error: { code: 'payment_not_found' } } })
  expect(await v1Posts('/card/payout')).toBe(before)
  const created = await creating(alice, accountId)
  expect(created).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^cpo_/), status: 'pending', card: { brand: 'visa', last4: '4242' } } })
  expect(await v1Posts('/card/payout')).toBe(before + 1)
  expect(await alice('/card/payout/status', { id: created.body.id })).toMatchObject({
    status: 200,
    body: { id: created.body.id, status: 'pending', fiatCurrency: 'EUR' },
  })
  const reads = await v1Posts('/card/payout/status')
  expect(await bob('/card/payout/status', { id: created.body.id })).toMatchObject({ status: 404, body: { error: { code: 'payment_not_found' } } })
  expect(await v1Posts('/card/payout/status')).toBe(reads)
  // A page of another host is never where the card page sends the buyer.
  expect(await alice('/card/payout/card-session', { returnUrl: 'https://evil.example/' })).toMatchObject({
    status: 400,
    body: { error: { code: 'invalid_field' } },
  })
})
