// @vitest-environment node
// When the reconciler looks at a payment next: a table of cases, read as "a <kind> in <status>,
// <elapsed> after the status was first seen, is looked at again after <wait>".
import { describe, expect, it } from 'vitest'
import { fixedPace, nextLook, settlementOf, settlementWindow, type LookInput } from '../../../../src/server/reconcile/nextLook'

const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H
const T0 = Date.UTC(2026, 10, 2, 9) // a Monday, 09:00 UTC

const look = (kind: LookInput['kind'], status: string | null, sinceChange: number, more: Partial<LookInput> = {}) =>
  nextLook({ kind, status, createdAt: T0, lastChangeAt: T0, now: T0 + sinceChange, unchangedLooks: 0, looks: 1, ...more })

describe('nextLook', () => {
  // [what, kind, status, time since the status was first seen, settlement label, next look after]
  const table: Array<[string, LookInput['kind'], string | null, number, string | undefined, number]> = [
    // Waiting on the buyer: soon after creation, then further apart, every twelfth of the hour
    // (a payout's funding) or half hour (a card page) while the buyer may still act, then rarely.
    ['a payout just created, before its funding transfer', 'payout', 'pending', 0, undefined, 10 * S],
    ['a payout 10 s after creation', 'payout', 'pending', 10 * S, undefined, 10 * S],
    ['a payout 40 s after creation', 'payout', 'pending', 40 * S, undefined, 40 * S],
    ['a payout 30 min after creation', 'payout', 'pending', 30 * MIN, undefined, 5 * MIN],
    ['a payout 2 h after creation, not funded (late: as long again as it is late)', 'payout', 'pending', 2 * H, undefined, H],
    ['a payout funded 3 days late', 'payout', 'pending', 3 * D, undefined, 6 * H],
    ['a card payout before its funding', 'cardPayout', 'pending', 0, undefined, 10 * S],
    ['a card purchase whose card page is open, 20 min', 'card', 'pending', 20 * MIN, undefined, 150 * S],
    ['a bank deposit awaiting the buyer\'s transfer (instant rail), 1 h', 'bankDeposit', 'awaiting_funds', H, 'instant', 625 * S],
    ['a bank deposit awaiting the buyer\'s transfer (under 2 h), 1 h', 'bankDeposit', 'awaiting_funds', H, 'under_2h', 20 * MIN],
    // Waiting on the service's own work: seconds to minutes.
    ['a payout converting, just seen', 'payout', 'converting', 0, undefined, 10 * S],
    ['a payout converting for 1 min', 'payout', 'converting', MIN, undefined, 60 * S],
    ['a payout converting for 10 min', 'payout', 'converting', 10 * MIN, undefined, 75 * S],
    ['a payout converting for 3 h (late)', 'payout', 'converting', 3 * H, undefined, 2 * H + 45 * MIN],
    ['a crypto deposit being routed, 20 s', 'deposit', 'pending', 20 * S, undefined, 20 * S],
    ['a card purchase processing, just seen', 'card', 'processing', 0, undefined, 10 * S],
    ['a bank deposit received, 5 min', 'bankDeposit', 'received', 5 * MIN, undefined, 75 * S],
    // Waiting on the rail: near the settlement GET /v1/limits states, rarely before it.
    ['a payout sent on an instant rail, just seen', 'payout', 'sent', 0, 'instant', 10 * S],
    ['a payout sent on an instant rail, 2 min', 'payout', 'sent', 2 * MIN, 'instant', 25 * S],
    ['a payout sent on a t+0 rail, 3 h', 'payout', 'sent', 3 * H, 't+0', H],
    ['a payout sent on a t+1 rail, just seen', 'payout', 'sent', 0, 't+1', 30 * MIN],
    ['a payout sent on a t+1 rail, 2 h', 'payout', 'sent', 2 * H, 't+1', 6 * H],
    ['a payout sent on a t+1 rail, 10 h (lands on the window\'s start)', 'payout', 'sent', 10 * H, 't+1', 2 * H],
    ['a payout sent on a t+1 rail, 20 h (in the window)', 'payout', 'sent', 20 * H, 't+1', 2 * H],
    ['a payout sent on a t+1 rail, 40 h (late)', 'payout', 'sent', 40 * H, 't+1', 4 * H],
    ['a payout sent on a t+1..t+3 rail, 2 days', 'payout', 'sent', 2 * D, 't+1..t+3', 2 * H],
    ['a payout sent on an under_2h rail, 1 h', 'payout', 'sent', H, 'under_2h', 10 * MIN],
    ['a payout sent on a rail of unknown settlement, 1 h (minutes to days)', 'payout', 'sent', H, undefined, H],
    ['a payout sent on a rail of a label this kit does not read, 1 h', 'payout', 'sent', H, 'next_week', H],
    ['a card payout sent, 1 min (minutes to several working days)', 'cardPayout', 'sent', MIN, undefined, MIN],
    ['a card payout sent, 1 day', 'cardPayout', 'sent', D, undefined, 2 * H],
    ['an expired bank deposit (money in flight still lands), 1 h, instant rail', 'bankDeposit', 'expired', H, 'instant', 55 * MIN],
  ]
  it.each(table)('%s: %s %s', (_what, kind, status, since, settlement, expected) => {
    expect(look(kind, status, since, { settlement })).toBe(expected)
  })

  it('backs off while nothing moves on a status it cannot place (no status yet, a card state the contract does not name): 5 s doubling, up to an hour', () => {
    expect([0, 1, 2, 3, 9, 10, 20].map((n) => look('card', 'on_hold', 0, { unchangedLooks: n }))).toEqual([5 * S, 10 * S, 20 * S, 40 * S, 2560 * S, H, H])
    expect(look('payout', null, 0)).toBe(5 * S)
  })

  it('counts from the last change, not from creation', () => {
    expect(look('payout', 'sent', 0, { createdAt: T0 - D, settlement: 't+1' })).toBe(30 * MIN)
  })
})

describe('fixedPace (for comparison: the reconciler before issue 37)', () => {
  const fixed = fixedPace({ pollIntervalMs: 5 * S, maxPollIntervalMs: 10 * MIN })
  const at = (looks: number, unchangedLooks: number) => fixed({ kind: 'payout', status: 'sent', createdAt: T0, lastChangeAt: T0, now: T0 + D, settlement: 't+1', looks, unchangedLooks })
  it('looks at once at a new payment, 5 s after a change, then twice as long each time nothing moved, up to 10 min', () => {
    expect(at(0, 0)).toBe(0)
    expect([0, 1, 2, 3, 7, 8, 20].map((n) => at(5, n))).toEqual([5 * S, 5 * S, 10 * S, 20 * S, 320 * S, 10 * MIN, 10 * MIN])
  })
})

describe('settlement labels', () => {
  it.each([
    ['instant', 0, 5 * MIN],
    ['under_2h', 0, 2 * H],
    ['under_30m', 0, 30 * MIN],
    ['t+0', 0, 12 * H],
    ['same_day', 0, 12 * H],
    ['t+1', 12 * H, 36 * H],
    ['t+3', 60 * H, 84 * H],
    ['t+1..t+3', 12 * H, 84 * H],
  ])('%s: the move expected between %d and %d ms after the status', (label, from, to) => {
    expect(settlementWindow(label)).toEqual({ from, to })
  })
  it.each([undefined, '', 'soon', 't+', 't+3..t+1', 'under_h'])('%s: unknown', (label) => {
    expect(settlementWindow(label)).toBeUndefined()
  })

  const limits = [
    { currency: 'EUR', rail: 'sepa_instant', direction: 'both', max: '100000.00', min: '1.00', settlement: 'instant' },
    { currency: 'EUR', rail: 'sepa', direction: 'payout', max: null, min: '1.00', settlement: 't+1' },
    { currency: 'MXN', rail: 'spei', direction: 'both', max: '500000.00', min: '10.00', settlement: 'under_2h' },
    { currency: 'USD', rail: 'ach', direction: 'payout', max: '100000.00', min: '1.00', settlement: 't+1..t+3' },
  ] as const
  it("reads a payout's rail from its status record, else the slowest rail of its currency", () => {
    expect(settlementOf('payout', { id: 'po', status: 'sent', rail: 'sepa_instant', fiatCurrency: 'EUR' }, 'EUR', limits)).toBe('instant')
    expect(settlementOf('payout', { id: 'po', status: 'pending' }, 'EUR', limits)).toBe('t+1')
    expect(settlementOf('payout', null, 'USD', limits)).toBe('t+1..t+3')
    expect(settlementOf('payout', { id: 'po', status: 'sent', rail: 'wire' }, 'USD', limits)).toBe('t+1..t+3')
  })
  it("reads a bank deposit's from the pay-in rails of its currency; nothing for the kinds no rail carries", () => {
    expect(settlementOf('bankDeposit', null, 'MXN', limits)).toBe('under_2h')
    expect(settlementOf('bankDeposit', null, 'USD', limits)).toBeUndefined()
    expect(settlementOf('cardPayout', null, 'EUR', limits)).toBeUndefined()
    expect(settlementOf('card', null, 'EUR', limits)).toBeUndefined()
    expect(settlementOf('payout', null, 'EUR', undefined)).toBeUndefined()
  })
})
