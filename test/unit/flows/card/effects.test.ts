// The card payment's effects with a fake clock, a fake service and a fake partner backend.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import '../../../../src/polling/pollStatus'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, NetworkError } from '../../../../src/errors/ApiError'
import { describeError } from '../../../../src/errors/describeError'
import { type CardDeps, createCardEffects } from '../../../../src/flows/card/effects'
import { type CardEvent, type CardState, type Purchase, transition } from '../../../../src/flows/card/machine'
import { cardStore } from '../../../../src/flows/card/persisted'
import { cardConfig, cardQuote, fakePartner } from '../../helpers/card'
import { driveFlow } from '../../helpers/driveFlow'
import { type FakeApi, fakeApi, inTurn } from '../../helpers/fakeApi'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { fakeLocks } from '../../helpers/fakeLocks'
import { memoryStorage } from '../../helpers/memoryStorage'
import { useFakeQueryTime } from '../../helpers/queryTime'
import { createPartnerHttp } from '../../../../src/api/partnerHttp'

/** The partner's door as the widget builds it (services.partner). */
const httpOf = (c: { partnerBase?: string; partnerToken?: string; partnerCookies?: boolean }) =>
  createPartnerHttp({ base: c.partnerBase ?? '', token: c.partnerToken, cookies: c.partnerCookies })

const START = Date.parse('2026-11-23T12:00:00Z')
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const config = { ...cardConfig, timings: { pollMs: 1_000, dropCheckMs: 500, kycRecheckMs: 1_000, bankPollMs: 1_000, backoffBaseMs: 100 } }

let clock: FakeClock
let api: FakeApi
let partner: ReturnType<typeof fakePartner>
let navigate: ReturnType<typeof vi.fn<(url: string) => void>>
let driver: { dispose(): void } | undefined

beforeEach(() => {
  clock = createFakeClock(START)
  useFakeQueryTime(clock)
  api = fakeApi()
  partner = fakePartner()
  navigate = vi.fn<(url: string) => void>()
})
afterEach(() => {
  driver?.dispose()
  driver = undefined
  vi.unstubAllGlobals()
})

function drive(start: CardState, deps: Partial<CardDeps> = {}) {
  const store = cardStore(memoryStorage())
  const all: CardDeps = { config, api, http: httpOf(config), partner, store, clock, returnUrl: () => 'https://shop.example/pay?return=1', navigate, ...deps }
  const d = driveFlow<CardState, CardEvent>(
    start,
    (s, e) => transition(s, e, { decimalMark: '.' }),
    (dispatch) => createCardEffects(all, dispatch),
  )
  driver = d
  return { ...d, store: all.store }
}

const form = { currency: 'EUR', amount: '', address: ADDRESS, asset: 'ETH' }
const atQuote = (quote = cardQuote(START)): CardState => ({ tag: 'quote', form: { ...form, amount: '50' }, amount: '50', work: 'idle', quote, quotedAt: START })
const purchase: Purchase = { id: 'p-7', environment: 'sandbox', currency: 'EUR', total: '51.5', cryptoAmount: '0.01', cryptoCurrency: 'ETH', createdAt: START }

describe('limits', () => {
  it('loads the limits for the currency and asset from the partner backend', async () => {
    const d = drive({ tag: 'form', form })
    await until(() => d.types().includes('LIMITS'))
    expect(partner.limits).toHaveBeenCalledWith('EUR', 'ETH')
    expect(d.state()).toMatchObject({ tag: 'form', limits: { min: '10', max: '1000' } })
  })

  it('limits that fail to load are only a courtesy: nothing is dispatched, the quote still works', async () => {
    partner.limits.mockRejectedValue(new NetworkError('down'))
    const d = drive({ tag: 'form', form })
    await clock.settle()
    expect(partner.limits).toHaveBeenCalledTimes(1)
    expect(d.events).toEqual([])
  })

  it('limits still on their way when the buyer submits keep coming, and an amount outside them goes back to the form', async () => {
    let answer!: (limits: { fiatCurrency: string; cryptoCurrency: string; min: string; max: string }) => void
    partner.limits.mockImplementation(() => new Promise((resolve) => (answer = resolve)))
    let quoted = 0
    api.answer('/card/quote', () => {
      quoted++
      return new Promise(() => {})
    })
    const d = drive({ tag: 'form', form: { ...form, amount: '5' } })
    await clock.settle()
    expect(partner.limits).toHaveBeenCalledTimes(1)
    d.dispatch({ type: 'SUBMIT' })
    await until(() => quoted === 1)
    answer({ fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '10', max: '1000' })
    await until(() => d.state().tag === 'form')
    expect(d.state()).toMatchObject({ tag: 'form', form: { amount: '5' }, error: { kind: 'limits', min: '10', max: '1000' } })
    expect(partner.limits).toHaveBeenCalledTimes(1)
  })

  it('no limits are asked before the asset is known', async () => {
    drive({ tag: 'form', form: { ...form, asset: undefined } })
    await clock.settle()
    expect(partner.limits).not.toHaveBeenCalled()
  })
})

describe('quote', () => {
  it('QUOTED at the time it came; EXPIRED at expiresAt, then priced again while the buyer is idle', async () => {
    api.answer('/card/quote', () => cardQuote(clock.now()))
    const d = drive({ tag: 'quoting', form: { ...form, amount: '50' }, amount: '50', requote: false })
    await until(() => d.state().tag === 'quote')
    expect(d.last('QUOTED')).toMatchObject({ at: START })
    expect(api.to('/card/quote')[0]).toMatchObject({ body: { fiatCurrency: 'EUR', fiatAmount: '50' }, priority: 'user' })
    await clock.advance(59_999)
    expect(d.types()).not.toContain('EXPIRED')
    await clock.advance(1)
    await until(() => api.to('/card/quote').length === 2)
    await until(() => d.state().tag === 'quote')
    expect(d.state()).toMatchObject({ refreshed: true, quotedAt: START + 60_000 })
  })

  it('a failed quote is QUOTE_FAILED with its words', async () => {
    const error = new ApiError(503, 'unavailable', 'down')
    api.answer('/card/quote', inTurn(error))
    const d = drive({ tag: 'quoting', form: { ...form, amount: '50' }, amount: '50', requote: false })
    await until(() => d.state().tag === 'form')
    expect(d.last('QUOTE_FAILED')).toEqual({ type: 'QUOTE_FAILED', problem: describeError(error) })
    expect(d.state()).toMatchObject({ error: { kind: 'api', problem: { key: 'error.server' } } })
  })
})

describe('purchase', () => {
  it('asks a KYC token, creates the purchase, saves it, then goes to the card page', async () => {
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM', now: clock.now() })
    await until(() => navigate.mock.calls.length === 1, 'navigate')
    expect(partner.kycToken).toHaveBeenCalledWith(ADDRESS)
    expect(partner.purchase).toHaveBeenCalledWith({
      kycToken: 'kyc-1',
      fiatCurrency: 'EUR',
      fiatAmount: '50',
      walletAddress: ADDRESS,
      returnUrl: 'https://shop.example/pay?return=1',
    })
    // The card page's address is kept with it: a page closed before paying can be opened again.
    const page = 'https://pay.cardprovider.example/checkout/p-1'
    const record = {
      id: 'p-1',
      environment: 'sandbox',
      currency: 'EUR',
      total: '51.5',
      cryptoAmount: '0.01',
      cryptoCurrency: 'ETH',
      createdAt: START,
      redirectUrl: page,
    }
    expect(d.last('PURCHASED')).toEqual({ type: 'PURCHASED', purchase: record, redirectUrl: 'https://pay.cardprovider.example/checkout/p-1' })
    expect(d.store.load()).toEqual(record)
    expect(navigate).toHaveBeenCalledWith('https://pay.cardprovider.example/checkout/p-1')
  })

  it('the record is in storage before PURCHASED is dispatched', async () => {
    const store = cardStore(memoryStorage())
    let stored: Purchase | undefined
    const watching = (s: CardState, e: CardEvent) => {
      if (e.type === 'PURCHASED') stored = store.load()
      return transition(s, e, { decimalMark: '.' })
    }
    const d = driveFlow<CardState, CardEvent>(atQuote(), watching, (dispatch) =>
      createCardEffects({ config, api, http: httpOf(config), partner, store, clock, returnUrl: () => 'https://shop.example/', navigate }, dispatch),
    )
    driver = d
    d.dispatch({ type: 'CONFIRM', now: clock.now() })
    await until(() => d.types().includes('PURCHASED'))
    expect(stored).toMatchObject({ id: 'p-1' })
  })

  it('a purchase that fails is PURCHASE_FAILED with its words, and nothing is saved', async () => {
    const error = new ApiError(422, 'kyc_failed', 'no')
    partner.purchase.mockRejectedValue(error)
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM', now: clock.now() })
    await until(() => d.types().includes('PURCHASE_FAILED'))
    expect(d.state()).toMatchObject({ tag: 'quote', work: 'idle', problem: describeError(error) })
    expect(d.store.load()).toBeUndefined()
  })

  it.each([
    ['a host not on the list', 'https://pay.evil.example/checkout', 'host'],
    ['a javascript: URL', 'javascript:alert(1)', 'scheme'],
    ['credentials in the URL', 'https://user:pw@pay.cardprovider.example/x', 'credentials'],
  ])('a redirect to %s is refused, never followed', async (_name, url, problem) => {
    partner.purchase.mockResolvedValue({ id: 'p-2', redirectUrl: url, environment: 'sandbox' })
    const d = drive(atQuote())
    d.dispatch({ type: 'CONFIRM', now: clock.now() })
    await until(() => d.types().includes('REDIRECT_REFUSED'))
    expect(d.state()).toMatchObject({ tag: 'redirect', problem })
    expect(navigate).not.toHaveBeenCalled()
  })
})

describe('status', () => {
  it('polls every config.timings.pollMs to a final status, then clears the saved purchase', async () => {
    partner.status
      .mockResolvedValueOnce({ id: 'p-7', status: 'pending', environment: 'sandbox' })
      .mockResolvedValueOnce({ id: 'p-7', status: 'processing', environment: 'sandbox' })
      .mockResolvedValue({ id: 'p-7', status: 'completed', environment: 'sandbox', txHash: '0xabc' })
    const d = drive({ tag: 'tracking', purchase, attempt: 0 })
    d.store.save(purchase)
    await until(() => partner.status.mock.calls.length === 1, 'the first poll')
    await clock.advance(999)
    expect(partner.status).toHaveBeenCalledTimes(1)
    await clock.advance(1)
    expect(partner.status).toHaveBeenCalledTimes(2)
    await clock.advance(1_000)
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', status: { status: 'completed' } })
    expect(d.store.load()).toBeUndefined()
    await clock.advance(10_000)
    expect(partner.status).toHaveBeenCalledTimes(3)
  })

  it('retryable trouble is WAITING, then the status; a 4xx is TRACK_ERROR, and RETRY polls again', async () => {
    partner.status
      .mockRejectedValueOnce(new ApiError(502, 'upstream_error', ''))
      .mockResolvedValueOnce({ id: 'p-7', status: 'pending', environment: 'sandbox' })
      .mockRejectedValueOnce(new ApiError(404, 'not_found', 'no such purchase'))
      .mockResolvedValue({ id: 'p-7', status: 'failed', environment: 'sandbox' })
    const d = drive({ tag: 'tracking', purchase: { ...purchase, id: 'p-8' }, attempt: 0 })
    await until(() => d.types().includes('WAITING'))
    await clock.advance(10_000)
    await until(() => d.types().includes('TRACK_ERROR'))
    expect(d.types().filter((t: string) => t !== 'ELSEWHERE')).toEqual(['WAITING', 'TRACK', 'TRACK_ERROR'])
    expect(d.state()).toMatchObject({ tag: 'tracking', problem: { key: 'error.unknown', code: 'not_found' } })
    await clock.advance(60_000)
    expect(partner.status).toHaveBeenCalledTimes(3)
    d.dispatch({ type: 'RETRY' })
    await until(() => d.state().tag === 'result')
    expect(d.state()).toMatchObject({ tag: 'result', status: { status: 'failed' } })
  })

  it('another tab following the purchase: ELSEWHERE, and no poll here', async () => {
    const locks = fakeLocks()
    locks.install()
    locks.holdElsewhere('stablecoin-widget:card:p-9')
    const d = drive({ tag: 'tracking', purchase: { ...purchase, id: 'p-9' }, attempt: 0 })
    await until(() => d.types().includes('ELSEWHERE'))
    expect(d.state()).toMatchObject({ tab: 'elsewhere' })
    await clock.advance(10_000)
    expect(partner.status).not.toHaveBeenCalled()
  })
})
