// Issue 17, item 3: limits from GET /v1/limits picked per rail and direction, amounts checked as
// decimal strings (null is no limit), and the "SEPA Instant · usually instant · up to 100,000 EUR" line.
import { describe, expect, it } from 'vitest'
import type { LimitEntry } from '../../../src/api/reference'
import { enLimits } from '../../../src/i18n/shared/en-limits'
import { addEnglish } from '../../../src/i18n/i18n'
import { limitProblem } from '../../../src/errors/limitWords'
import { describeLimit, limitLine, settlementText } from '../../../src/i18n/limits'
import { landingOf } from '../../../src/lib/landing'
import { checkAmount, limitsFor, pickLimit, railName } from '../../../src/lib/limits'

addEnglish(enLimits as unknown as Parameters<typeof addEnglish>[0])

const entry = (
  rail: string,
  currency: string,
  direction: LimitEntry['direction'],
  min: string | null,
  max: string | null,
  settlement = 'instant',
): LimitEntry => ({
  rail,
  currency,
  direction,
  min,
  max,
  settlement,
})

const LIMITS: LimitEntry[] = [
  entry('sepa_instant', 'EUR', 'both', '1.00', '100000.00'),
  entry('sepa', 'EUR', 'payout', '1.00', null, 't+1'),
  entry('faster_payments', 'GBP', 'both', '1.00', '1000000.00'),
  entry('ach', 'USD', 'payout', '1.00', '100000.00', 't+1..t+3'),
  entry('wire', 'USD', 'payout', '100.00', null, 't+0'),
]

describe('picking the entry', () => {
  it('by currency and direction; `both` serves either', () => {
    expect(limitsFor(LIMITS, { currency: 'EUR', direction: 'pay_in' }).map((e) => e.rail)).toEqual(['sepa_instant'])
    expect(limitsFor(LIMITS, { currency: 'eur', direction: 'payout' }).map((e) => e.rail)).toEqual(['sepa_instant', 'sepa'])
    expect(limitsFor(LIMITS, { currency: 'USD', direction: 'pay_in' })).toEqual([])
  })

  it('by rail', () => {
    expect(pickLimit(LIMITS, { currency: 'USD', direction: 'payout', rail: 'wire' })).toBe(LIMITS[4])
    expect(pickLimit(LIMITS, { currency: 'USD', direction: 'pay_in', rail: 'wire' })).toBeUndefined()
  })
})

describe('checking an amount', () => {
  const sepaInstant = LIMITS[0]!

  it('the bounds are inclusive, compared as decimals', () => {
    expect(checkAmount('1', sepaInstant)).toEqual({ ok: true })
    expect(checkAmount('1.000', sepaInstant)).toEqual({ ok: true })
    expect(checkAmount('100000', sepaInstant)).toEqual({ ok: true })
    expect(checkAmount('0.99', sepaInstant)).toEqual({ ok: false, problem: 'below_min', limit: '1.00', currency: 'EUR', rail: 'sepa_instant' })
    expect(checkAmount('100000.01', sepaInstant)).toEqual({ ok: false, problem: 'above_max', limit: '100000.00', currency: 'EUR', rail: 'sepa_instant' })
  })

  it('no float rounding: one unit past the ceiling at the 18th decimal is over it', () => {
    const e = entry('x', 'EUR', 'both', '0.1', '0.3')
    expect(checkAmount('0.300000000000000001', e)).toMatchObject({ ok: false, problem: 'above_max' })
    expect(checkAmount('0.299999999999999999', e)).toEqual({ ok: true })
    // 0.1 + 0.2 is not 0.3 in floats; here the bound is exact.
    expect(checkAmount('0.30', e)).toEqual({ ok: true })
    expect(checkAmount('99999999999999999999.5', entry('x', 'EUR', 'both', null, '99999999999999999999.49'))).toMatchObject({ ok: false })
  })

  it('null is no limit, on either side', () => {
    const open = entry('x', 'EUR', 'both', null, null)
    expect(checkAmount('0.000001', open)).toEqual({ ok: true })
    expect(checkAmount('123456789012345678901234567890', open)).toEqual({ ok: true })
    expect(checkAmount('1000000000', LIMITS[1]!)).toEqual({ ok: true })
  })

  it('with the rail not chosen yet, one rail taking it is enough; else the nearest bound', () => {
    const usd = limitsFor(LIMITS, { currency: 'USD', direction: 'payout' })
    expect(checkAmount('500000', usd)).toEqual({ ok: true }) // the wire has no ceiling
    const gbpIn = limitsFor(LIMITS, { currency: 'GBP', direction: 'pay_in' })
    expect(checkAmount('0.5', gbpIn)).toMatchObject({ ok: false, problem: 'below_min', limit: '1.00' })
    const both = [entry('a', 'EUR', 'both', '10', '100'), entry('b', 'EUR', 'both', '5', '1000')]
    expect(checkAmount('2', both)).toMatchObject({ ok: false, problem: 'below_min', limit: '5', rail: 'b' })
    expect(checkAmount('2000', both)).toMatchObject({ ok: false, problem: 'above_max', limit: '1000', rail: 'b' })
  })

  it('no entry is no known limit', () => {
    expect(checkAmount('5', [])).toEqual({ ok: true })
  })
})

describe('words for the screen', () => {
  it('"SEPA Instant · usually instant · up to 100,000 EUR"', () => {
    expect(limitLine(LIMITS[0]!, 'en')).toBe('SEPA Instant · usually instant · up to 100,000 EUR')
    expect(limitLine(LIMITS[0]!, 'de')).toBe('SEPA Instant · usually instant · up to 100.000 EUR')
  })

  it('no ceiling: the line stops at the settlement time', () => {
    expect(limitLine(LIMITS[1]!, 'en')).toBe('SEPA · usually the next business day')
  })

  it('the pieces, for a screen that lays them out itself', () => {
    expect(describeLimit(LIMITS[3]!, 'en')).toEqual({
      rail: 'ACH',
      settlement: { key: 'limits.settlement.range', params: { from: 1, to: 3 } },
      max: { key: 'limits.max', params: { amount: '100,000 USD' } },
      min: { key: 'limits.min', params: { amount: '1 USD' } },
    })
  })

  it('every settlement label of the contract has words; an unknown one is shown as is', () => {
    expect(settlementText('instant').key).toBe('limits.settlement.instant')
    expect(settlementText('t+0').key).toBe('limits.settlement.sameDay')
    expect(settlementText('same_day').key).toBe('limits.settlement.sameDay')
    expect(settlementText('t+1').key).toBe('limits.settlement.nextDay')
    expect(settlementText('t+3')).toEqual({ key: 'limits.settlement.days', params: { n: 3 } })
    expect(settlementText('t+1..t+3')).toEqual({ key: 'limits.settlement.range', params: { from: 1, to: 3 } })
    expect(settlementText('under_2h')).toEqual({ key: 'limits.settlement.underHours', params: { n: 2 } })
    expect(settlementText('weekly')).toEqual({ key: 'limits.settlement.other', params: { label: 'weekly' } })
  })

  it('rail names: known ones as their owners write them, others readable', () => {
    expect(railName('faster_payments')).toBe('Faster Payments')
    expect(railName('pix')).toBe('PIX')
    expect(railName('mobile_money')).toBe('Mobile money')
  })

  it('a failed check in words', () => {
    const check = checkAmount('200000', LIMITS[0]!)
    if (check.ok) throw new Error('expected a problem')
    expect(limitProblem(check, 'en')).toEqual({ key: 'limits.aboveMax', params: { rail: 'SEPA Instant', amount: '100,000 EUR' } })
  })
})

describe('landingOf: where the rails land (a bank, mobile money, a wallet, or any of them), never "the bank" for all', () => {
  it.each([
    [['sepa_instant', 'sepa'], 'bank'],
    [['mpesa'], 'mobile'],
    [['mobile_money'], 'mobile'],
    [['stablecoin'], 'wallet'],
    [['nip', 'mobile_money'], 'any'],
    [['ach', 'wire', 'swift', 'stablecoin'], 'any'],
    [[], 'any'],
  ] as const)('%j lands in %s', (rails, landing) => {
    expect(landingOf(rails)).toBe(landing)
  })
})
