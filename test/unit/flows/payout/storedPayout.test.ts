// The stored payout, on the machine, the stores and the effects (fake clock, fake partner
// backend, fake wallet/chain): a reference per create request, a record resumed only for its own
// buyer, the wallet ask kept before prompting and checked after a reload, "Not you?", and aging.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { describe, expect, it } from 'vitest'
import type { PartnerHttp } from '../../../../src/api/partnerHttp'
import { FieldRejected } from '../../../../src/errors/ApiError'
import { emptyDraft } from '../../../../src/flows/payout/base'
import { digestOf } from '../../../../src/flows/payout/creating'
import { type PayoutState, initialState, transition } from '../../../../src/flows/payout/machine'
import { PAYOUT_MAX_AGE_MS, payoutStore, referenceStore } from '../../../../src/flows/payout/persisted'
import type { PayoutRecord } from '../../../../src/flows/payout/record'
import { type IdentityState, emptyApplicant } from '../../../../src/identity/machine'
import { settle, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'
import {
  connectWallet,
  BUYER,
  type FakeWallet,
  HASH,
  NOW,
  OTHER,
  bankQuote,
  buyer,
  createdPayout,
  ctx,
  drive as drivePayout,
  fakePartner,
  fakeWallet,
  payoutConfig as makeConfig,
  recordOf,
  sepaValues,
  toDestination,
  toFunding,
  wallet as walletInfo,
} from '../../helpers/payout'

const quote = bankQuote({ expiresAt: new Date(NOW + 600_000).toISOString() })
const created = createdPayout(quote.expiresAt)
const record: PayoutRecord = recordOf({ expiresAt: quote.expiresAt })
const identity: IdentityState = { tag: 'wallet', form: emptyApplicant, connection: { tag: 'discovering' } }
const sepa = sepaValues

function drive(initial: PayoutState, partner: PartnerHttp, opts: { w?: FakeWallet; storage?: Storage; config?: ReturnType<typeof makeConfig> } = {}) {
  let forgotten = 0
  const d = drivePayout(initial, {
    partner,
    wallet: opts.w,
    storage: opts.storage,
    config: opts.config,
    now: () => NOW,
    wallets: [walletInfo],
    forget: () => void forgotten++,
  })
  return { ...d, forgotten: () => forgotten }
}

const beneficiaryState = (IBAN = 'DE89 3704 0044 0532 0130 00', purpose = ''): PayoutState => ({
  tag: 'beneficiary',
  buyer,
  form: ctx.emptyForm(),
  draft: { ...emptyDraft(), schema: 'bank_sepa', values: sepa(IBAN), purpose },
  ask: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE' },
  quote,
  quotedAt: NOW,
  problems: {},
  work: 'idle',
})

const connect = (d: ReturnType<typeof drive>) => connectWallet(d, walletInfo)

describe('a reference belongs to one create request', () => {
  it('the same request (beneficiary keys in another order) keeps its reference; another quote, IBAN or purpose gets a new one', () => {
    const storage = memoryStorage()
    const refs = referenceStore(storage, () => NOW)
    let n = 0
    const fresh = () => `po_${++n}`
    const request = { quoteId: 'bq_1', accountId: 'acc_1', beneficiary: { schema: 'bank_sepa', ...sepa('DE89370400440532013000') } }
    expect(refs.forRequest(digestOf(request), fresh)).toBe('po_1')
    expect(refs.forRequest(digestOf({ ...request, beneficiary: { ...sepa('DE89370400440532013000'), schema: 'bank_sepa' } }), fresh)).toBe('po_1')
    expect(refs.forRequest(digestOf({ ...request, quoteId: 'bq_2' }), fresh)).toBe('po_2')
    expect(
      refs.forRequest(digestOf({ ...request, quoteId: 'bq_2', beneficiary: { schema: 'bank_sepa', ...sepa('FR1420041010050500013M02606') } }), fresh),
    ).toBe('po_3')
    expect(
      refs.forRequest(
        digestOf({ ...request, quoteId: 'bq_2', beneficiary: { schema: 'bank_sepa', ...sepa('FR1420041010050500013M02606') }, purpose: 'rent' }),
        fresh,
      ),
    ).toBe('po_4')
    // Stored as a digest: the beneficiary's details never sit in the partner origin's storage.
    expect([...storage.data.values()].join()).not.toMatch(/FR14|DE89|Lovelace/)
  })

  it('"Start over" from funding drops the record and our reference; the next request gets a new one', async () => {
    const partner = fakePartner({ '/bank/payout': [created, { ...created, id: 'bp_2', depositAddress: '0x2222222222222222222222222222222222222222' }] })
    const d = drive(beneficiaryState(), partner)
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'funding')
    d.dispatch(toFunding({ type: 'RESTART' }))
    expect(d.state()).toMatchObject({ tag: 'form', abandoned: 'bp_1' })
    expect(d.store.load()).toBeUndefined()
    expect(d.storage.getItem('stablecoin-widget:v1:flow:payout-reference')).toBeNull()
  })

  it('a signed reference: a field the service refused releases it (nothing was created), and the corrected request goes under it', async () => {
    const partner = fakePartner({ '/bank/payout': [new FieldRejected(400, 'invalid_request', 'beneficiary.IBAN: invalid'), created] })
    const d = drive(beneficiaryState(), partner, { config: makeConfig({ reference: 'order-42' }) })
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the refusal')
    d.dispatch(toDestination({ type: 'EDIT', values: { IBAN: 'FR14 2004 1010 0505 0001 3M02 606' } }))
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'funding')
    expect(partner.calls.filter((c) => c.path === '/bank/payout').map((c) => c.body.reference)).toEqual(['order-42', 'order-42'])
  })

  it('a signed reference: after a lost answer, the same request may be retried under it, a different one is refused before any call', async () => {
    const partner = fakePartner({ '/bank/payout': [new TypeError('answer lost')] })
    const d = drive(beneficiaryState(), partner, { config: makeConfig({ reference: 'order-42' }) })
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the lost answer')
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the retry')
    expect(partner.calls.filter((c) => c.path === '/bank/payout')).toHaveLength(2)
    d.dispatch(toDestination({ type: 'EDIT', purpose: 'rent' }))
    d.dispatch(toDestination({ type: 'EDIT', values: { IBAN: 'FR14 2004 1010 0505 0001 3M02 606' } }))
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => (d.state() as { work?: string }).work === 'idle', 'the refusal')
    expect(partner.calls.filter((c) => c.path === '/bank/payout')).toHaveLength(2)
    expect(d.state()).toMatchObject({ problem: { key: 'payout.problem.referenceUsed', code: 'payout_reference_used' } })
  })
})

describe('a stored payout is resumed only for its own buyer', () => {
  it('the created record carries the buyer', async () => {
    const d = drive(beneficiaryState(), fakePartner({ '/bank/payout': [created] }))
    d.dispatch(toDestination({ type: 'SUBMIT', now: NOW }))
    await until(() => d.state().tag === 'funding', 'funding')
    expect(d.store.load(buyer)).toMatchObject({ id: 'bp_1', accountId: 'acc_1', wallet: BUYER })
  })

  it('another account, another wallet, or a link signed for another wallet: never resumed', () => {
    expect(initialState({ record, buyer, identity }, ctx).tag).toBe('funding')
    expect(initialState({ record, buyer: { ...buyer, accountId: 'acc_2' }, identity }, ctx).tag).toBe('form')
    expect(initialState({ record, buyer: { ...buyer, wallet: OTHER }, identity }, ctx).tag).toBe('form')
    expect(initialState({ record, buyer, identity }, { ...ctx, linkWallet: OTHER }).tag).toBe('form')
    // Without a buyer: the anonymous price, never the record.
    expect(initialState({ record: { ...record, txHash: HASH }, buyer: undefined, identity }, ctx)).toMatchObject({ tag: 'form', buyer: undefined })
  })

  it("one record per buyer: a second buyer's payout keeps the first buyer's sent one for them to follow", () => {
    const storage = memoryStorage()
    const store = payoutStore(storage, () => NOW)
    store.save({ ...record, txHash: HASH })
    const b = { accountId: 'acc_2', wallet: OTHER }
    expect(store.load(b)).toBeUndefined()
    store.save({ ...record, id: 'bp_2', ...b })
    expect(store.load(b)?.id).toBe('bp_2')
    expect(store.load(buyer)).toMatchObject({ id: 'bp_1', txHash: HASH })
    store.clear('bp_2')
    expect(store.load(buyer)?.id).toBe('bp_1')
  })
})

describe('the wallet ask is kept before prompting; a reload checks, never asks on its own', () => {
  it('promptedAt is stored before the wallet is asked; a declined prompt drops it', async () => {
    const storage = memoryStorage()
    let seenAtPrompt: PayoutRecord | undefined
    const w = fakeWallet({
      onSend: () => void (seenAtPrompt = payoutStore(storage).load(buyer)),
      answer: async () => Promise.reject(Object.assign(new Error('no'), { code: 4001 })),
    })
    payoutStore(storage).save(record)
    const d = drive(
      { tag: 'funding', buyer, record, work: 'idle', connection: { tag: 'discovering' } },
      fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] }),
      {
        w,
        storage,
      },
    )
    await connect(d)
    d.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
    await until(() => (d.state() as { problem?: unknown }).problem !== undefined, 'the refusal')
    expect(seenAtPrompt?.promptedAt).toBe(NOW)
    expect(d.state()).toMatchObject({ tag: 'funding', work: 'idle', problem: { kind: 'wallet', problem: 'rejected' } })
    expect(payoutStore(storage).load(buyer)?.promptedAt).toBeUndefined()
  })

  it('after a reload with the mark and nothing arrived: SEND alone is ignored; after the check, a confirmed SEND asks once', async () => {
    const partner = fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] })
    const prompted = { ...record, promptedAt: NOW - 1000 }
    const start = initialState({ record: prompted, buyer, identity }, ctx)
    expect(start).toMatchObject({ tag: 'funding', verify: 'running' })
    const d = drive(start, partner)
    await connect(d)
    await until(() => (d.state() as { verify?: string }).verify === 'clear', 'the check')
    expect(partner.calls.filter((c) => c.path === '/bank/payout/status')).toHaveLength(1)
    d.dispatch(toFunding({ type: 'CONFIRM', now: NOW }))
    await settle(10)
    expect(d.sent).toHaveLength(0)
    d.dispatch(toFunding({ type: 'CONFIRM', now: NOW, confirmed: true }))
    await until(() => d.state().tag === 'tracking', 'sent')
    expect(d.sent).toHaveLength(1)
  })

  it('after a reload with the mark: a status past pending, or money at the address, is followed and never sent', async () => {
    const prompted = { ...record, promptedAt: NOW - 1000 }
    const a = drive(initialState({ record: prompted, buyer, identity }, ctx), fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'converting' }] }))
    await until(() => a.state().tag === 'tracking', 'following (status)')
    const b = drive(initialState({ record: prompted, buyer, identity }, ctx), fakePartner({ '/bank/payout/status': [{ id: 'bp_1', status: 'pending' }] }), {
      w: fakeWallet({ held: 1n }),
    })
    await until(() => b.state().tag === 'tracking', 'following (balance)')
    expect(b.state()).toMatchObject({ alreadyFunded: true })
    expect([...a.sent, ...b.sent]).toHaveLength(0)
  })

  it('start over is refused while a transfer may be on its way and the check has not cleared it', () => {
    const s: PayoutState = { tag: 'funding', buyer, record: { ...record, promptedAt: NOW }, work: 'idle', connection: { tag: 'discovering' } }
    expect(transition(s, toFunding({ type: 'RESTART' }), ctx)).toBe(s)
    expect(transition(s, toFunding({ type: 'NOT_YOU' }), ctx)).toBe(s)
    expect(transition({ ...s, verify: 'clear' }, toFunding({ type: 'RESTART' }), ctx).tag).toBe('form')
  })
})

describe('"Not you?" forgets the stored buyer and starts again without one', () => {
  it('from the form: the price without a buyer (the identity steps come after the wallet) and accounts.forget()', async () => {
    const d = drive({ tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft() }, fakePartner({ '/limits': [{ limits: [] }] }))
    d.dispatch({ type: 'NOT_YOU' })
    expect(d.state()).toMatchObject({ tag: 'form', forgetBuyer: true })
    expect(d.forgotten()).toBe(1)
  })

  it('from an unfunded resumed payout, too', () => {
    expect(transition({ tag: 'funding', buyer, record, work: 'idle', connection: { tag: 'discovering' } }, toFunding({ type: 'NOT_YOU' }), ctx)).toMatchObject({
      tag: 'form',
      forgetBuyer: true,
    })
  })
})

describe('the payout record ages', () => {
  it('forgotten after 30 days, except a record with a hash (followed until final)', () => {
    const storage = memoryStorage()
    let now = NOW
    const store = payoutStore(storage, () => now)
    store.save(record)
    now = NOW + PAYOUT_MAX_AGE_MS + 1
    expect(store.load(buyer)).toBeUndefined()
    expect(storage.getItem(store.key)).toBeNull()
    now = NOW
    store.save({ ...record, txHash: HASH })
    now = NOW + 2 * PAYOUT_MAX_AGE_MS
    expect(store.load(buyer)?.txHash).toBe(HASH)
  })
})
