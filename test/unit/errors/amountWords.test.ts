// The amount's words, in one place for every form (issue 30): the same error reads the same in each flow.
import { describe, expect, it } from 'vitest'
import { amountErrorText } from '../../../src/errors/amountWords'
import { amountOrLimitText } from '../../../src/errors/limitWords'
import { enLimits } from '../../../src/i18n/shared/en-limits'
import { enCard } from '../../../src/i18n/en-card'
import { enAmount } from '../../../src/i18n/shared/en-amount'
import { addEnglish } from '../../../src/i18n/i18n'

addEnglish({ ...enAmount, ...enLimits, ...enCard })

describe('amountErrorText', () => {
  it("words the amount's shape with the form's unit and decimals, in the locale's decimal mark", () => {
    expect(amountErrorText({ kind: 'amount', problem: 'decimals' }, { unit: 'USDC', decimals: 6, locale: 'en' })).toBe('USDC allows at most 6 decimals.')
    expect(amountErrorText({ kind: 'amount', problem: 'format' }, { unit: 'EUR', decimals: 2, locale: 'de' })).toBe(
      'Use digits and one decimal mark only, for example 50,00.',
    )
  })

  it("a flow's own words for too many decimals win", () => {
    expect(amountErrorText({ kind: 'amount', problem: 'decimals' }, { unit: 'EUR', decimals: 2, locale: 'en', decimalsKey: 'card.decimals' })).toBe(
      'Use at most 2 decimals.',
    )
  })

  it("words the card's window, and says nothing for an error that is not the amount's", () => {
    expect(amountErrorText({ kind: 'limits', min: '10', max: '1000' }, { unit: 'EUR', decimals: 2, locale: 'en' })).toBe(
      'Card payments in EUR must be between 10 and 1,000.',
    )
    expect(amountErrorText({ kind: 'rejected' }, { unit: 'EUR', decimals: 2, locale: 'en' })).toBeUndefined()
    expect(amountErrorText(undefined, { unit: 'EUR', decimals: 2, locale: 'en' })).toBeUndefined()
  })
})

describe('amountOrLimitText', () => {
  it("words a rail's limit the amount is outside of, and the rest as amountErrorText does", () => {
    const check = { ok: false, problem: 'above_max', limit: '100000', currency: 'EUR', rail: 'sepa_instant' } as const
    expect(amountOrLimitText({ kind: 'limit', check }, { unit: 'EUR', decimals: 2, locale: 'en' })).toBe(
      'The largest transfer SEPA Instant takes is 100,000 EUR.',
    )
    expect(amountOrLimitText({ kind: 'amount', problem: 'empty' }, { unit: 'EUR', decimals: 2, locale: 'en' })).toBe('Enter an amount.')
  })
})
