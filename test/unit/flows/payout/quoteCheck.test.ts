import { describe, expect, it } from 'vitest'
import { checkQuote } from '../../../../src/flows/payout/quoteCheck'

describe('the quote against what the buyer asked', () => {
  const priced = { cryptoAmount: '100', fiatAmount: '91.50' }
  it('a crypto ask: exactly that amount leaves the wallet, compared in base units', () => {
    expect(checkQuote({ kind: 'crypto', amount: '100' }, priced, 6)).toEqual({ ok: true })
    expect(checkQuote({ kind: 'crypto', amount: '100' }, { ...priced, cryptoAmount: '100.000000' }, 6)).toEqual({ ok: true })
    expect(checkQuote({ kind: 'crypto', amount: '0.1' }, { ...priced, cryptoAmount: '0.100000' }, 6)).toEqual({ ok: true })
  })
  it.each([['1000'], ['99.999999'], ['100.000001'], ['100.0000001'], ['0']])('a crypto ask of 100 refuses a quote of %s', (cryptoAmount) => {
    expect(checkQuote({ kind: 'crypto', amount: '100' }, { ...priced, cryptoAmount }, 6)).toEqual({ ok: false, rule: 'ask.crypto' })
  })
  it('a fiat ask: at least that much arrives', () => {
    expect(checkQuote({ kind: 'fiat', amount: '91.5' }, priced, 6)).toEqual({ ok: true })
    expect(checkQuote({ kind: 'fiat', amount: '91' }, priced, 6)).toEqual({ ok: true })
    expect(checkQuote({ kind: 'fiat', amount: '91.51' }, priced, 6)).toEqual({ ok: false, rule: 'ask.fiat' })
    expect(checkQuote({ kind: 'fiat', amount: '1000' }, priced, 6)).toEqual({ ok: false, rule: 'ask.fiat' })
  })
})
