// Attack: the payout's idempotency `reference` outlives the request it was made for.
// POST /bank/payout with a reference already used "returns the original payout" (partner-api.md,
// Bank payout): the original beneficiary, the original address. The widget keys its own reference
// on the amount/currency/country/rail only (persisted.ts askKey), not on the quote nor on the
// beneficiary, and never drops it on "Start over"; so a buyer who abandons a payout (or whose first
// answer was lost) and asks again for the same amount with corrected bank details is handed the
// ORIGINAL payout, and the widget asks the wallet to fund it: the money goes to the beneficiary the
// buyer corrected away. A partner's signed `reference` is reused the same way for every payout of
// the session.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import type { PayoutQuote } from '../../../../src/api/payout'
import { PartnerUnreachableError } from '../../../../src/errors/ApiError'
import { emptyDraft } from '../../../../src/flows/payout/base'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import { payoutStore } from '../../../../src/flows/payout/persisted'
import { until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import { NOW, buyer, ctxOf, drive as drivePayout, fakeWallet, payoutConfig as makeConfig, sepaValues, toDestination, toFunding } from '../../helpers/payout'

const DEPOSIT_A = '0x1111111111111111111111111111111111111111'
const quote = (id: string): PayoutQuote => ({
  quoteId: id,
  cryptoAmount: '100',
  fiatAmount: '91.50',
  rate: '0.92',
  rail: 'sepa_instant',
  estimatedSettlement: 'instant',
  providerFee: '0.25',
  ourFee: '0.25',
  expiresAt: new Date(NOW + 600_000).toISOString(),
})
// What the service holds for the first request: beneficiary A, address A.
const payoutA = { id: 'bp_A', depositAddress: DEPOSIT_A, depositAmount: '100', chain: 8453, status: 'pending', expiresAt: quote('x').expiresAt }
const IBAN_A = 'DE89 3704 0044 0532 0130 00'
const IBAN_B = 'FR14 2004 1010 0505 0001 3M02 606'

/** A partner backend that keeps the contract's idempotency: a known reference returns the original payout. */
function idempotentPartner(firstAnswerLost = false) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = []
  const byReference = new Map<string, unknown>()
  let n = 0
  let lost = firstAnswerLost
  const http: PartnerHttp = {
    get: async () => ({ limits: [] }) as never,
    post: async (path: string, body: unknown) => {
      const b = body as Record<string, unknown>
      calls.push({ path, body: b })
      if (path === '/bank/payout/quote') return quote(`bq_${++n}`) as never
      if (path === '/bank/payout/status') return { id: 'bp_A', status: 'pending' } as never
      if (path === '/bank/payout') {
        const ref = b.reference as string | undefined
        if (ref && byReference.has(ref)) return byReference.get(ref) as never
        const made = byReference.size === 0 ? payoutA : { ...payoutA, id: 'bp_B', depositAddress: '0x2222222222222222222222222222222222222222' }
        if (ref) byReference.set(ref, made)
        if (lost) {
          lost = false
          throw new PartnerUnreachableError(new TypeError('answer lost'))
        }
        return made as never
      }
      throw new Error(`unexpected ${path}`)
    },
  }
  return { http, calls }
}

/** The chain: plenty in the buyer's wallet (and, as this test never sends, at any address). */
const chain = fakeWallet({ balance: 10n ** 12n, held: 10n ** 12n })
const ctx = ctxOf('bank', { emptyForm: () => ({ kind: 'crypto', amount: '', currency: 'EUR', country: '', rail: '' }) })

function drive(initial: PayoutState, http: PartnerHttp, config = makeConfig(), storage = memoryStorage()) {
  return drivePayout(initial, { partner: http, config, storage, ctx, wallet: chain, wallets: [{ id: 'w|t', name: 'T', rdns: 't' }] })
}

const sepa = sepaValues
const beneficiaryState = (IBAN: string): PayoutState => ({
  tag: 'beneficiary',
  buyer,
  form: { kind: 'crypto', amount: '100', currency: 'EUR', country: 'DE', rail: '' },
  draft: { ...emptyDraft(), schema: 'bank_sepa', values: sepa(IBAN) },
  ask: { kind: 'crypto', amount: '100', currency: 'EUR', country: 'DE' },
  quote: quote('bq_0'),
  quotedAt: NOW,
  problems: {},
  work: 'idle',
})

async function newPayoutAfterStartOver(d: ReturnType<typeof drive>, IBAN: string) {
  d.dispatch(toFunding({ type: 'RESTART' }))
  expect(d.state().tag).toBe('form')
  d.dispatch({ type: 'EDIT', amount: '100' })
  d.dispatch({ type: 'EDIT', country: 'DE' })
  d.dispatch({ type: 'SUBMIT' })
  await until(() => d.state().tag === 'quote', 'the new quote')
  d.dispatch({ type: 'CONFIRM', now: NOW })
  // Price first: the wallet that funds it is connected before the beneficiary.
  expect(d.state().tag).toBe('connect')
  d.dispatch(toFunding({ type: 'WALLET', event: { type: 'CHOOSE', wallet: { kind: 'injected', id: 'w|t', name: 'T', rdns: 't' } } }))
  await until(() => d.state().tag === 'beneficiary', 'the beneficiary')
  d.dispatch(toDestination({ type: 'EDIT', values: sepa(IBAN) }))
  d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
  await until(() => d.state().tag === 'funding' || (d.state() as { work?: string }).work === 'idle', 'the second payout')
}

describe('attack: the idempotency reference hands back a payout the buyer abandoned', () => {
  it('"Start over" from funding, same amount, corrected IBAN: the wallet must fund the NEW payout, not the old one', async () => {
    const partner = idempotentPartner()
    const d = drive(beneficiaryState(IBAN_A), partner.http)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'payout A at funding')
    // The buyer notices the wrong IBAN and starts over (the funding screen's secondary button).
    await newPayoutAfterStartOver(d, IBAN_B)
    const creates = partner.calls.filter((c) => c.path === '/bank/payout')
    expect(creates).toHaveLength(2)
    expect((creates[1].body.beneficiary as { IBAN: string }).IBAN).toBe(IBAN_B.replace(/\s/g, ''))
    // A new request (new quote, new beneficiary) is not a retry: it needs its own idempotency key.
    expect(creates[1].body.reference).not.toBe(creates[0].body.reference)
    // Otherwise the service returns payout A (beneficiary A) and the widget offers to fund it.
    expect((d.state() as { record?: { id: string } }).record?.id).not.toBe('bp_A')
  })

  it('a lost answer, then a corrected IBAN: the retry must not reuse the key of a request with other bank details', async () => {
    const partner = idempotentPartner(true)
    const d = drive(beneficiaryState(IBAN_A), partner.http)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'beneficiary' && (d.state() as { work?: string }).work === 'idle', 'the lost answer')
    d.dispatch(toDestination({ type: 'EDIT', values: { IBAN: IBAN_B } }))
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding' || (d.state() as { work?: string }).work === 'idle', 'the retry')
    const creates = partner.calls.filter((c) => c.path === '/bank/payout')
    expect((creates[1].body.beneficiary as { IBAN: string }).IBAN).toBe(IBAN_B.replace(/\s/g, ''))
    expect(creates[1].body.reference).not.toBe(creates[0].body.reference)
    expect((d.state() as { record?: { id: string } }).record?.id).not.toBe('bp_A')
  })

  it("a partner's signed reference is one payout: a second payout in the session must not reuse it", async () => {
    const partner = idempotentPartner()
    const d = drive(beneficiaryState(IBAN_A), partner.http, makeConfig({ reference: 'order-42' }))
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'payout A at funding')
    await newPayoutAfterStartOver(d, IBAN_B)
    const creates = partner.calls.filter((c) => c.path === '/bank/payout')
    // Adjusted (was toHaveLength(2)): under the contract a second, different request sent under the
    // signed reference can only ever get payout A back, and the widget may not make up another key
    // for a link the partner signed for one payout. So request B is never sent: it is refused before
    // any call, with words that send the buyer back to the partner's site for a new link.
    expect(creates).toHaveLength(1)
    expect(d.state()).toMatchObject({ tag: 'beneficiary', work: 'idle', problem: { key: 'payout.problem.referenceUsed' } })
    // Same key → the service answers payout A; the widget must not offer to fund it for request B.
    expect((d.state() as { record?: { id: string } }).record?.id).not.toBe('bp_A')
  })

  it('"Start over" from funding forgets the abandoned payout: a reload must not bring it back to fund', async () => {
    const partner = idempotentPartner()
    const storage = memoryStorage()
    const d = drive(beneficiaryState(IBAN_A), partner.http, makeConfig(), storage)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'payout A at funding')
    d.dispatch(toFunding({ type: 'RESTART' }))
    expect(d.state().tag).toBe('form')
    // PayoutFlow.tsx:52 starts from payoutStore(local).load(): the abandoned payout A, at funding.
    expect(payoutStore(storage).load()).toBeUndefined()
  })
})
