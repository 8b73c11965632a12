import { describe, expect, it } from 'vitest'
import { compareDecimal, decimalMarkOf, formatAmount, fromBaseUnits, isDecimalString, parseAmount, toBaseUnits } from '../../../src/lib/decimal'

describe('parseAmount', () => {
  it.each([
    [' 25.50 ', '25.5'],
    ['007', '7'],
    ['007.50', '7.5'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1.1234560', '1.123456'],
    ['1.123456', '1.123456'],
    ['100', '100'],
    ['0.000001', '0.000001'],
    ['123456789012345678.123456', '123456789012345678.123456'],
  ])('accepts %j as %j (6 decimals)', (input, value) => {
    expect(parseAmount(input, 6)).toEqual({ ok: true, value })
  })

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['.', 'format'],
    ['-1', 'negative'],
    ['-0.5', 'negative'],
    ['0', 'zero'],
    ['0.000', 'zero'],
    ['000', 'zero'],
    ['1.1234567', 'decimals'],
    ['1e3', 'format'],
    ['1E3', 'format'],
    ['1 000', 'format'],
    ['1,000.5', 'format'],
    ['\u0663', 'format'],
    ['\u0661.\u0665', 'format'],
    ['+1', 'format'],
    ['Infinity', 'format'],
    ['NaN', 'format'],
    ['0x10', 'format'],
    ['1.2.3', 'format'],
    ['abc', 'format'],
  ])('rejects %j as %s (6 decimals, "." mark)', (input, problem) => {
    expect(parseAmount(input, 6)).toEqual({ ok: false, problem })
  })

  it('takes a comma as the decimal mark only when the mark is ","', () => {
    expect(parseAmount('1,5', 6, ',')).toEqual({ ok: true, value: '1.5' })
    expect(parseAmount(' 0,50 ', 6, ',')).toEqual({ ok: true, value: '0.5' })
    // Issue 39, item 12: the other mark before anything but three digits can only be a decimal mark.
    expect(parseAmount('1,5', 6, '.')).toEqual({ ok: true, value: '1.5' })
    expect(parseAmount('20,50', 2, '.')).toEqual({ ok: true, value: '20.5' })
    expect(parseAmount('1.5', 6, ',')).toEqual({ ok: true, value: '1.5' })
    expect(parseAmount('0.000001', 6, ',')).toEqual({ ok: true, value: '0.000001' })
    // Before exactly three digits it could group thousands: never guessed, said so.
    expect(parseAmount('1,500', 6, '.')).toEqual({ ok: false, problem: 'ambiguous' })
    expect(parseAmount('1,000,000', 6, '.')).toEqual({ ok: false, problem: 'format' })
  })

  it('never reads a comma as a thousands separator, with either mark', () => {
    expect(parseAmount('1,000.5', 6, ',')).toEqual({ ok: false, problem: 'format' })
    expect(parseAmount('1.000,5', 6, ',')).toEqual({ ok: false, problem: 'format' })
    expect(parseAmount('1,000,5', 6, ',')).toEqual({ ok: false, problem: 'format' })
    expect(parseAmount(',', 6, ',')).toEqual({ ok: false, problem: 'format' })
  })

  // Doc: "anything but digits and one decimal mark ... is format". With ',' as the mark, a '.' is not
  // the mark; a German buyer typing "1.000" means one thousand, and must not be charged 1.
  it('with "," as the mark, a "." is not a decimal mark (de "1.000" is not 1)', () => {
    expect(parseAmount('1.000', 6, ',')).toEqual({ ok: false, problem: 'ambiguous' })
    expect(parseAmount('2.500', 6, ',')).toEqual({ ok: false, problem: 'ambiguous' })
  })

  it('counts decimals against maxDecimals after trimming trailing zeros only', () => {
    expect(parseAmount('1.12', 2)).toEqual({ ok: true, value: '1.12' })
    expect(parseAmount('1.123', 2)).toEqual({ ok: false, problem: 'decimals' })
    expect(parseAmount('1.1200000', 2)).toEqual({ ok: true, value: '1.12' })
    expect(parseAmount('1.5', 0)).toEqual({ ok: false, problem: 'decimals' })
    expect(parseAmount('15', 0)).toEqual({ ok: true, value: '15' })
    expect(parseAmount('1,1234567', 6, ',')).toEqual({ ok: false, problem: 'decimals' })
  })
})

describe('base units', () => {
  it('converts to and from base units exactly', () => {
    expect(toBaseUnits('25.5', 6)).toBe(25_500_000n)
    expect(toBaseUnits('25', 6)).toBe(25_000_000n)
    expect(toBaseUnits('0.000001', 6)).toBe(1n)
    expect(toBaseUnits('1.50', 1)).toBe(15n)
    expect(fromBaseUnits(25_500_000n, 6)).toBe('25.5')
    expect(fromBaseUnits(1n, 6)).toBe('0.000001')
    expect(fromBaseUnits(1_000_000n, 6)).toBe('1')
    expect(fromBaseUnits(0n, 6)).toBe('0')
    expect(fromBaseUnits(42n, 0)).toBe('42')
    expect(fromBaseUnits(-1_500_000n, 6)).toBe('-1.5')
  })

  it('keeps values beyond 2^53 exact both ways', () => {
    const value = '123456789012345678.123456'
    const units = toBaseUnits(value, 6)
    expect(units).toBe(123456789012345678123456n)
    expect(units > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
    expect(fromBaseUnits(units, 6)).toBe(value)
    const wei = toBaseUnits('98765432109.876543210987654321', 18)
    expect(wei).toBe(98765432109876543210987654321n)
    expect(fromBaseUnits(wei, 18)).toBe('98765432109.876543210987654321')
  })

  it.each(['0.5', '1', '25.5', '9007199254740993', '0.000001', '18446744073709551616.999999'])('round-trips %s through base units', (value) => {
    expect(fromBaseUnits(toBaseUnits(value, 6), 6)).toBe(value)
  })

  it('refuses what is not a canonical decimal or is too precise', () => {
    expect(() => toBaseUnits('1.1234567', 6)).toThrow(/decimals/)
    expect(() => toBaseUnits('1e3', 6)).toThrow(/not a decimal/)
    expect(() => toBaseUnits('-1', 6)).toThrow(/not a decimal/)
    expect(() => toBaseUnits('.5', 6)).toThrow(/not a decimal/)
    expect(toBaseUnits('1.1234560', 6)).toBe(1_123_456n)
  })

  it('recognises decimal strings', () => {
    expect(isDecimalString('25.5')).toBe(true)
    expect(isDecimalString('0')).toBe(true)
    expect(isDecimalString('25.')).toBe(false)
    expect(isDecimalString('1,5')).toBe(false)
    expect(isDecimalString('')).toBe(false)
  })
})

describe('compareDecimal', () => {
  it.each([
    ['1', '2', -1],
    ['2', '1', 1],
    ['1.10', '1.1', 0],
    ['10', '9.999999', 1],
    ['0.000001', '0', 1],
    ['9007199254740993', '9007199254740992', 1],
    ['0.1000000000000000001', '0.1', 1],
    ['123456789012345678.123456', '123456789012345678.123457', -1],
  ] as const)('compare(%s, %s) = %i', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected)
  })
})

describe('formatAmount', () => {
  it('groups and trims trailing zeros for the locale', () => {
    expect(formatAmount('1234567.890000', 'en')).toBe('1,234,567.89')
    expect(formatAmount('1234567.890000', 'de')).toBe('1.234.567,89')
    expect(formatAmount('100.000', 'en')).toBe('100')
    expect(formatAmount('25', 'en', 'USDC')).toBe('25 USDC')
  })

  it('keeps every digit of a value beyond float precision', () => {
    expect(formatAmount('0.123456789012345678', 'en')).toBe('0.123456789012345678')
    expect(formatAmount('123456789012345678.123456', 'en')).toBe('123,456,789,012,345,678.123456')
    expect(formatAmount('9007199254740993', 'en')).toBe('9,007,199,254,740,993')
  })

  it('knows the decimal mark of a locale', () => {
    expect(decimalMarkOf('en')).toBe('.')
    expect(decimalMarkOf('de')).toBe(',')
  })
})
