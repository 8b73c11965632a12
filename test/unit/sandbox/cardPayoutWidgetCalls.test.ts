// Issue 31, item 3: the widget's own card payout calls (src/api/cardPayout.ts, through
// createPartnerHttp as a flow makes them) against the kit's source and the sandbox's card payout:
// every request the widget sends is accepted as sent, and every answer, at every status, reads
// with the widget's schemas (assumed-contract.md's shapes, not the sandbox's own idea of them).
import { parseUnits } from 'viem'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { cardPayoutSession, cardPayoutStatus, createCardPayout, quoteCardPayout } from '../../../src/api/cardPayout'
import { createPartnerHttp, type PartnerHttp } from '../../../src/api/partnerHttp'
import type { PayoutStatusName } from '../../../src/api/payout'
import { validateRedirect } from '../../../src/lib/redirect'
import { type BankStack, ORIGIN, startBankStack, until } from './bankStack'

let s: BankStack
let http: PartnerHttp
let accountId: string
const wallet = () => s.config.accounts[7]
beforeAll(async () => {
  s = await startBankStack()
  accountId = (await s.onboard(wallet())).accountId
  // A browser sends its page's Origin; Node's fetch does not.
  const fetchFromPage = ((url: string, init: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: ORIGIN } })) as typeof fetch
  http = createPartnerHttp({ base: `${s.base}/partner`, token: 'ada-card-payout-widget', fetch: fetchFromPage })
}, 60_000)
afterAll(() => s?.stop())
beforeEach(async () => {
  await s.reset()
  await s.control('/control', { payoutStepMs: 30 })
})

/** Quote, card page (a card entered there), creation: each answer read by the widget's schemas. */
async function created(amount: { cryptoAmount: string } | { fiatAmount: string }, reference: string) {
  const quote = await quoteCardPayout(http, { cryptoCurrency: 'USDC', chain: 8453, fiatCurrency: 'EUR', ...amount })
  const session = await cardPayoutSession(http, { returnUrl: `${ORIGIN}/widget.html?flow=cardPayout&partner=sandbox` })
  // The flow follows the page only where validateRedirect allows it (the sandbox build: loopback http).
  const page = validateRedirect(session.url, (s.stack.config as { cardHosts: string[] }).cardHosts, true)
  expect(page.ok).toBe(true)
  const id = new URL(session.url).searchParams.get('id')
  const entered = await fetch(`${s.base}/card-payout-page/save?id=${id}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'cardNumber=5555555555554444',
  })
  expect(Object.fromEntries(new URL(entered.headers.get('location')!).searchParams)).toMatchObject({ cardSession: session.id, result: 'ok' })
  const request = { quoteId: quote.quoteId, accountId, cardSession: session.id, reference }
  return { quote, request, payout: await createCardPayout(http, request) }
}
const statusOf = (id: string) => cardPayoutStatus(http, id)
const reached = (id: string, status: PayoutStatusName) =>
  until(
    () => statusOf(id),
    (r) => r.status === status,
  )

it('a payout the buyer underfunds: every answer reads, a repeat is the same payout, what landed is lower than quoted', { timeout: 30_000 }, async () => {
  const { quote, request, payout } = await created({ fiatAmount: '100.00' }, 'cpw-under-1')
  expect(quote).toMatchObject({ fiatAmount: '100.00', ourFee: expect.any(String), providerFee: expect.any(String) })
  expect(payout).toMatchObject({ status: 'pending', chain: 8453, depositAmount: quote.cryptoAmount, card: { brand: 'mastercard', last4: '4444' } })
  expect(await createCardPayout(http, request)).toEqual(payout)
  expect(await statusOf(payout.id)).toMatchObject({ id: payout.id, status: 'pending', fiatCurrency: 'EUR' })
  const hash = await s.transfer(wallet(), payout.depositAddress as `0x${string}`, parseUnits(payout.depositAmount, 6) / 2n)
  const settled = await reached(payout.id, 'settled')
  expect(settled).toMatchObject({ depositTxHash: hash, fiatCurrency: 'EUR' })
  expect(Number(settled.fiatAmount)).toBeLessThan(Number(quote.fiatAmount))
})

it('rejected and returned records, with their reasons, read as the contract has them', { timeout: 30_000 }, async () => {
  await s.control('/control', { payoutHold: true })
  const rejected = (await created({ cryptoAmount: '50' }, 'cpw-rejected-1')).payout
  await s.control('/card/payout/fund', { id: rejected.id })
  await reached(rejected.id, 'converting')
  await s.control('/card/payout/reject', { id: rejected.id, reason: 'card_not_eligible' })
  expect(await statusOf(rejected.id)).toMatchObject({ status: 'rejected', reason: 'card_not_eligible' })

  const returned = (await created({ cryptoAmount: '50' }, 'cpw-returned-1')).payout
  await s.control('/card/payout/fund', { id: returned.id })
  await s.control('/card/payout/advance', { id: returned.id })
  expect((await reached(returned.id, 'sent')).fiatAmount).toMatch(/^\d+\.\d{2}$/)
  await s.control('/card/payout/return', { id: returned.id, reason: 'card_closed', cost: '1' })
  expect(await statusOf(returned.id)).toMatchObject({ status: 'returned', reason: 'card_closed' })
})
