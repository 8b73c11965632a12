import { describe, expect, it } from 'vitest'
import type { CardQuote } from '../../../../src/api/schemas'
import { type CardEvent, type CardState, type Purchase, initialState, stepOf, transition } from '../../../../src/flows/card/machine'

const ctx = { decimalMark: '.' as const }
const run = (state: CardState, ...events: CardEvent[]) => events.reduce((s, e) => transition(s, e, ctx), state)
const form = { currency: 'EUR', amount: '', address: '' }
const quote: CardQuote = {
  cryptoAmount: '0.01558666',
  cryptoCurrency: 'ETH',
  fiatAmount: '46.76',
  rate: '3000',
  providerFee: '2.99',
  ourFee: '0.25',
  total: '50',
  expiresAt: '2026-11-22T12:01:00Z',
}
const purchase: Purchase = { id: 'cp_1', environment: 'sandbox', currency: 'EUR', total: '50', cryptoAmount: '0.01558666', cryptoCurrency: 'ETH', createdAt: 1 }
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const NOW = Date.parse('2026-11-22T12:00:00Z')

function quoted(): Extract<CardState, { tag: 'quote' }> {
  const s = run(initialState(form), { type: 'EDIT', amount: '50' }, { type: 'SUBMIT' }, { type: 'QUOTED', quote, at: NOW })
  if (s.tag !== 'quote') throw new Error(s.tag)
  return s
}

describe('card machine', () => {
  it('takes the asset from the quote when none was configured', () => {
    expect(quoted().form.asset).toBe('ETH')
    const back = run(quoted(), { type: 'BACK' })
    expect(back).toMatchObject({ tag: 'form', form: { asset: 'ETH' } })
  })

  it('limits that arrive after the buyer submitted still judge the amount (the first control never waits for them)', () => {
    const limits = { fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '20', max: '5000' }
    const eth = { ...form, asset: 'ETH' }
    const quoting = run(initialState(eth), { type: 'EDIT', amount: '10' }, { type: 'SUBMIT' })
    expect(quoting).toMatchObject({ tag: 'quoting', amount: '10' })
    // Outside the window: back to the form with the limits, nothing typed is lost.
    expect(run(quoting, { type: 'LIMITS', limits })).toMatchObject({
      tag: 'form',
      form: { amount: '10' },
      limits,
      error: { kind: 'limits', min: '20', max: '5000' },
    })
    // Inside it: the quote goes on, with the limits kept for a later edit.
    const inside = run(initialState(eth), { type: 'EDIT', amount: '50' }, { type: 'SUBMIT' }, { type: 'LIMITS', limits })
    expect(inside).toMatchObject({ tag: 'quoting', amount: '50', limits })
    // Limits of another currency or asset say nothing about this amount.
    expect(run(quoting, { type: 'LIMITS', limits: { ...limits, fiatCurrency: 'USD' } })).toEqual(quoting)
    // The service refused first (its words), then the limits came: the buyer reads the window.
    const refused = run(
      quoting,
      { type: 'QUOTE_FAILED', problem: { kind: 'api', message: 'fiatAmount: must be between 20 and 5000 EUR' } as never },
      { type: 'LIMITS', limits },
    )
    expect(refused).toMatchObject({ tag: 'form', limits, error: { kind: 'limits', min: '20', max: '5000' } })
    // An amount inside the window keeps the service's answer.
    const other = run(
      initialState(eth),
      { type: 'EDIT', amount: '50' },
      { type: 'SUBMIT' },
      { type: 'QUOTE_FAILED', problem: { kind: 'network' } as never },
      { type: 'LIMITS', limits },
    )
    expect(other).toMatchObject({ tag: 'form', error: { kind: 'api' } })
  })

  it('validates the amount without losing what was typed', () => {
    const s = run(initialState(form), { type: 'EDIT', amount: '12.345' }, { type: 'SUBMIT' })
    expect(s).toMatchObject({ tag: 'form', form: { amount: '12.345' }, error: { kind: 'amount', problem: 'decimals' } })
  })

  it('checks the card window before quoting, and only for the limits of the chosen currency and asset', () => {
    const limits = { fiatCurrency: 'EUR', cryptoCurrency: 'ETH', min: '20', max: '5000' }
    const eth = { ...form, asset: 'ETH' }
    expect(run(initialState(eth), { type: 'LIMITS', limits: { ...limits, cryptoCurrency: 'USDC' } })).toEqual(initialState(eth))
    expect(run(initialState(form), { type: 'LIMITS', limits })).toEqual(initialState(form))
    const low = run(initialState(eth), { type: 'LIMITS', limits }, { type: 'EDIT', amount: '19.99' }, { type: 'SUBMIT' })
    expect(low).toMatchObject({ tag: 'form', error: { kind: 'limits', min: '20', max: '5000' } })
    const ok = run(low, { type: 'EDIT', amount: '5000' }, { type: 'SUBMIT' })
    expect(ok).toMatchObject({ tag: 'quoting', amount: '5000' })
    const other = run(initialState(eth), { type: 'LIMITS', limits: { ...limits, fiatCurrency: 'USD' } })
    expect(other).toEqual(initialState(eth))
    const switched = run(initialState(eth), { type: 'LIMITS', limits }, { type: 'EDIT', currency: 'USD' })
    expect(switched).toMatchObject({ tag: 'form', form: { currency: 'USD' } })
    expect((switched as { limits?: unknown }).limits).toBeUndefined()
  })

  it('an API error on the quote returns to the form with the amount kept', () => {
    const s = run(
      initialState(form),
      { type: 'EDIT', amount: '50' },
      { type: 'SUBMIT' },
      { type: 'QUOTE_FAILED', problem: { key: 'error.upstream', code: 'upstream_error' } },
    )
    expect(s).toMatchObject({ tag: 'form', form: { amount: '50' }, error: { kind: 'api', problem: { code: 'upstream_error' } } })
  })

  it('refuses to continue without a valid wallet address', () => {
    const s = run(quoted(), { type: 'EDIT', address: '0x123' }, { type: 'CONFIRM', now: NOW })
    expect(s).toMatchObject({ tag: 'quote', addressError: true, work: 'idle' })
  })

  it('re-quotes an expired quote before continuing, and shows the new price first', () => {
    const s = run(quoted(), { type: 'EDIT', address: WALLET }, { type: 'CONFIRM', now: NOW + 61_000 })
    expect(s).toMatchObject({ tag: 'quoting', requote: true, form: { address: WALLET } })
    const again = run(s, { type: 'QUOTED', quote: { ...quote, cryptoAmount: '0.015' }, at: NOW + 62_000 })
    expect(again).toMatchObject({ tag: 'quote', work: 'idle', refreshed: true, quote: { cryptoAmount: '0.015' } })
  })

  it('QUOTE_EXPIRED re-quotes when idle and is ignored while the purchase is being created', () => {
    expect(run(quoted(), { type: 'EXPIRED' })).toMatchObject({ tag: 'quoting', requote: true })
    const busy = run(quoted(), { type: 'EDIT', address: WALLET }, { type: 'CONFIRM', now: NOW })
    expect(busy).toMatchObject({ tag: 'quote', work: 'purchasing' })
    expect(run(busy, { type: 'EXPIRED' })).toBe(busy)
    expect(run(busy, { type: 'BACK' })).toBe(busy)
  })

  it('a purchase failure keeps the quote and the address and says why', () => {
    const s = run(
      quoted(),
      { type: 'EDIT', address: WALLET },
      { type: 'CONFIRM', now: NOW },
      { type: 'PURCHASE_FAILED', problem: { key: 'error.requiresAction', code: 'requires_action' } },
    )
    expect(s).toMatchObject({ tag: 'quote', work: 'idle', form: { address: WALLET }, problem: { code: 'requires_action' } })
  })

  it('purchase → redirect → tracking → terminal, unknown states polled as they are', () => {
    let s = run(
      quoted(),
      { type: 'EDIT', address: WALLET },
      { type: 'CONFIRM', now: NOW },
      { type: 'PURCHASED', purchase, redirectUrl: 'https://pay.example.com/x' },
    )
    expect(s).toMatchObject({ tag: 'redirect', purchase })
    expect(run(s, { type: 'REDIRECT_REFUSED', problem: 'scheme' })).toMatchObject({ tag: 'redirect', problem: 'scheme' })
    s = run(s, { type: 'RETURNED' })
    expect(s).toMatchObject({ tag: 'tracking', purchase })
    s = run(s, { type: 'TRACK', status: { status: 'awaiting_3ds', environment: 'sandbox' } })
    expect(s).toMatchObject({ tag: 'tracking', status: { status: 'awaiting_3ds' } })
    for (const terminal of ['completed', 'failed', 'cancelled', 'expired']) {
      expect(run(s, { type: 'TRACK', status: { status: terminal, environment: 'sandbox' } })).toMatchObject({ tag: 'result', status: { status: terminal } })
    }
  })

  it('resumes a persisted purchase on its status, not on an empty form', () => {
    expect(initialState(form, purchase)).toEqual({ tag: 'tracking', purchase, attempt: 0 })
  })

  it('a tracking error offers a retry that restarts polling', () => {
    const s = run(initialState(form, purchase), { type: 'TRACK_ERROR', problem: { key: 'error.server' } })
    expect(s).toMatchObject({ tag: 'tracking', problem: { key: 'error.server' } })
    expect(run(s, { type: 'RETRY' })).toMatchObject({ tag: 'tracking', attempt: 1, problem: undefined })
  })

  it('numbers the steps the header shows: form, quote, card page, status', () => {
    const quoting = run(initialState(form), { type: 'EDIT', amount: '50' }, { type: 'SUBMIT' })
    const redirect = run(
      quoted(),
      { type: 'EDIT', address: WALLET },
      { type: 'CONFIRM', now: NOW },
      { type: 'PURCHASED', purchase, redirectUrl: 'https://pay.example.com/x' },
    )
    const tracking = run(redirect, { type: 'RETURNED' })
    const result = run(tracking, { type: 'TRACK', status: { status: 'completed', environment: 'sandbox' } })
    const steps = Object.fromEntries([initialState(form), quoting, quoted(), redirect, tracking, result].map((s) => [s.tag, stepOf(s).step]))
    expect(steps).toEqual({ form: 1, quoting: 1, quote: 2, redirect: 3, tracking: 4, result: 4 })
    expect(stepOf(quoted()).of).toBe(4)
  })

  it('a status the contract does not name stays followed, never an end', () => {
    const s = run(initialState(form, purchase), { type: 'TRACK', status: { status: 'on_hold', environment: 'sandbox' } })
    expect(s).toMatchObject({ tag: 'tracking', status: { status: 'on_hold' } })
  })
})
