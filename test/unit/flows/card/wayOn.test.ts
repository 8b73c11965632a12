import { describe, expect, it } from 'vitest'
import { type CardEvent, type CardState, type Purchase, initialState, transition, waysOn } from '../../../../src/flows/card/machine'

const run = (state: CardState, ...events: CardEvent[]) => events.reduce((s, e) => transition(s, e, { decimalMark: ',' }), state)
const form = { currency: 'EUR', amount: '', address: '' }
const page = 'https://pay.cards.test/p/cp_1'
const purchase: Purchase = {
  id: 'cp_1',
  environment: 'sandbox',
  currency: 'EUR',
  total: '50.5',
  cryptoAmount: '0.01',
  cryptoCurrency: 'ETH',
  createdAt: 1,
  redirectUrl: page,
}
const at = (status: string, p = purchase) => run(initialState(form, p), { type: 'TRACK', status: { status, environment: 'sandbox' } })

describe('a card page closed before paying', () => {
  it('pending: the same purchase’s page again, past the point of no return (no new purchase)', () => {
    expect(waysOn(at('pending'))).toEqual({ reopen: true, restart: true })
    expect(run(at('pending'), { type: 'REOPEN' })).toEqual({ tag: 'redirect', purchase, redirectUrl: page })
  })

  it('pending: starting again is a new form at the same total, in the buyer’s decimal mark, naming the purchase left', () => {
    expect(run(at('pending'), { type: 'RESTART' })).toEqual({
      tag: 'form',
      form: { currency: 'EUR', amount: '50,5', address: '', asset: 'ETH' },
      left: 'cp_1',
    })
  })

  it('a record kept without the page (older) offers only starting again', () => {
    const { redirectUrl: _, ...older } = purchase
    const s = at('pending', older)
    expect(waysOn(s)).toEqual({ reopen: false, restart: true })
    expect(run(s, { type: 'REOPEN' })).toBe(s)
  })

  it('neither way before the status is known, nor once the payment is in (processing, or an unknown state)', () => {
    for (const s of [initialState(form, purchase), at('processing'), at('awaiting_3ds')]) {
      expect(waysOn(s)).toEqual({ reopen: false, restart: false })
      expect(run(s, { type: 'REOPEN' }, { type: 'RESTART' })).toBe(s)
    }
  })
})
