// The card form's indicative rate (GET {partnerBase}/card/rate): asked once typing pauses, shown
// only for what the field still says, never a request per keystroke, and never a quote.
// As a page runs once its first screen is up: the stored-record checks and the answers' schemas are here.
import '../../setup/afterFirstScreen'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createPartnerHttp } from '../../../../src/api/partnerHttp'
import { type CardDeps, createCardEffects } from '../../../../src/flows/card/effects'
import { RATE_DEBOUNCE_MS } from '../../../../src/flows/card/rate'
import { type CardEvent, type CardState, transition } from '../../../../src/flows/card/machine'
import { cardStore } from '../../../../src/flows/card/persisted'
import { cardConfig, fakePartner } from '../../helpers/card'
import { driveFlow } from '../../helpers/driveFlow'
import { fakeApi } from '../../helpers/fakeApi'
import { type FakeClock, createFakeClock, until } from '../../helpers/fakeClock'
import { memoryStorage } from '../../helpers/memoryStorage'

let clock: FakeClock
let asked: URL[]
let driver: ReturnType<typeof driveFlow<CardState, CardEvent>> | undefined

const rateFetch = (async (url: string | URL | Request) => {
  const u = new URL(String(url))
  asked.push(u)
  const amount = u.searchParams.get('amount') ?? '0'
  const body = {
    side: 'buy',
    fiatCurrency: u.searchParams.get('fiatCurrency'),
    cryptoCurrency: u.searchParams.get('cryptoCurrency'),
    fiatAmount: amount,
    cryptoAmount: (Number(amount) / 3100).toFixed(6),
    rate: '3100',
  }
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
}) as typeof fetch

beforeEach(() => {
  clock = createFakeClock(0)
  asked = []
})
afterEach(() => driver?.dispose())

function drive(asset: string | null = 'ETH') {
  const deps: CardDeps = {
    config: cardConfig,
    api: fakeApi(),
    partner: fakePartner(),
    store: cardStore(memoryStorage()),
    clock,
    returnUrl: () => 'https://shop.example/',
    navigate: () => {},
    http: createPartnerHttp({ base: 'https://shop.example/api', fetch: rateFetch }),
  }
  driver = driveFlow<CardState, CardEvent>(
    { tag: 'form', form: { currency: 'EUR', amount: '', address: '', asset: asset ?? undefined } },
    (s, e) => transition(s, e, { decimalMark: '.' }),
    (d) => createCardEffects(deps, d),
  )
  return driver
}

describe('indicative card rate', () => {
  it('asks once typing pauses, for the last amount only, and keeps it for that amount', async () => {
    const d = drive()
    for (const amount of ['1', '10', '100']) {
      d.dispatch({ type: 'EDIT', amount })
      await clock.advance(RATE_DEBOUNCE_MS - 100)
    }
    expect(asked).toHaveLength(0)
    await clock.advance(100)
    await until(() => d.types().includes('RATE'))
    expect(asked).toHaveLength(1)
    expect(Object.fromEntries(asked[0].searchParams)).toEqual({ fiatCurrency: 'EUR', cryptoCurrency: 'ETH', amount: '100', side: 'buy' })
    expect(asked[0].pathname).toBe('/api/card/rate')
    expect(d.state()).toMatchObject({ tag: 'form', rate: { amount: '100', currency: 'EUR', rate: { cryptoAmount: '0.032258' } } })
  })

  it('follows the amount: a new amount asks again; an answer for an old amount is not shown', async () => {
    const d = drive()
    d.dispatch({ type: 'EDIT', amount: '100' })
    await clock.advance(RATE_DEBOUNCE_MS)
    await until(() => d.types().includes('RATE'))
    d.dispatch({ type: 'EDIT', amount: '250' })
    d.dispatch({
      type: 'RATE',
      currency: 'EUR',
      amount: '100',
      rate: { side: 'buy', fiatCurrency: 'EUR', cryptoCurrency: 'ETH', fiatAmount: '100', cryptoAmount: '1', rate: '1' },
    })
    expect(d.state()).toMatchObject({ rate: { amount: '100' } })
    await clock.advance(RATE_DEBOUNCE_MS)
    await until(() => asked.length === 2)
    await until(() => (d.state() as { rate?: { amount: string } }).rate?.amount === '250')
  })

  it('nothing is asked for an amount that does not parse, or before the asset is known', async () => {
    const d = drive()
    d.dispatch({ type: 'EDIT', amount: '12,5x' })
    await clock.advance(RATE_DEBOUNCE_MS * 2)
    expect(asked.map(String)).toEqual([])
    d.dispose()
    const e = drive(null)
    e.dispatch({ type: 'EDIT', amount: '50' })
    await clock.advance(RATE_DEBOUNCE_MS * 2)
    expect(asked).toHaveLength(0)
  })
})
