// @vitest-environment happy-dom
// Where a payout lands, said truly: a bank account, a mobile money wallet, a stablecoin wallet, or a
// card (never "the bank" for all); `sent` is on its way, never an arrival.
import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import type { PayoutRecord } from '../../../../src/flows/payout/record'
import { enCardPayout } from '../../../../src/i18n/en-cardPayout'
import { enLimits } from '../../../../src/i18n/shared/en-limits'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'
import { PayoutStatusScreen } from '../../../../src/screens/payout/PayoutStatusScreen'
import { buyer, recordOf } from '../../helpers/payout'
import { configFrom } from '../../helpers/links'

addEnglish({ ...enPayout, ...enLimits, ...enCardPayout })
afterEach(cleanup)

const config = configFrom({ apiBase: 'https://api.example', partnerBase: 'https://shop.example/api', identityUrl: 'https://id.example/' })
const record: PayoutRecord = recordOf({
  depositAmount: '22.28',
  expiresAt: '2026-11-24T12:00:00Z',
  fiatAmount: '20000.00',
  fiatCurrency: 'NGN',
  rail: 'nip',
  settlement: 'instant',
  createdAt: 0,
})
const shown = (rec: PayoutRecord, status: 'sent' | 'settled') => {
  const state: PayoutState = { tag: 'result', buyer, record: rec, status: { id: rec.id, status, fiatCurrency: rec.fiatCurrency } }
  render(<PayoutStatusScreen state={state} dispatch={() => {}} config={config} />)
  return document.body.textContent ?? ''
}

describe('where the payout lands, in words', () => {
  it('a bank rail: the bank account', () => {
    expect(shown(record, 'settled')).toContain('was paid out to the bank account')
  })
  it('mobile money: the mobile money wallet, never the bank', () => {
    const text = shown({ ...record, rail: 'mobile_money' }, 'settled')
    expect(text).toContain('was paid out to the mobile money wallet')
    expect(text).not.toMatch(/bank/i)
  })
  it('a stablecoin rail: the wallet, never the bank; sent is on its way', () => {
    const text = shown({ ...record, rail: 'stablecoin', fiatCurrency: 'USD' }, 'sent')
    expect(text).toContain('On its way to the wallet')
    expect(text).toContain('It has not arrived yet')
    expect(text).not.toMatch(/bank/i)
  })
  it('a card: the card, with its brand as a name', () => {
    const { rail: _, settlement: __, ...card } = record
    const text = shown({ ...card, fiatCurrency: 'EUR', card: { brand: 'visa', last4: '4242' } }, 'settled')
    expect(text).toContain('was paid to the card')
    expect(text).toContain('Visa ending in 4242')
    expect(text).not.toMatch(/bank/i)
  })
})
