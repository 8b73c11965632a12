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
    // Waiting on the buyer: a first look 30 s after (nobody funds a transfer or fills a card page
    // sooner), then doubling up to a twelfth of the window, never more than 10 min apart.
    ['a payout just created, before its funding transfer', 'payout', 'pending', 0, undefined, 30 * S],
    ['a payout 10 s after creation', 'payout', 'pending', 10 * S, undefined, 30 * S],
    ['a payout 40 s after creation', 'payout', 'pending', 40 * S, undefined, 40 * S],
    ['a payout 30 min after creation', 'payout', 'pending', 30 * MIN, undefined, 5 * MIN],
    ["a payout 2 h after creation, not funded (late: the fixed pace's longest wait)", 'payout', 'pending', 2 * H, undefined, 10 * MIN],
    ['a payout funded 3 days late', 'payout', 'pending', 3 * D, undefined, 10 * MIN],
    ['a card payout before its funding', 'cardPayout', 'pending', 0, undefined, 30 * S],
    ['a card purchase whose card page is open, 20 min', 'card', 'pending', 20 * MIN, undefined, 150 * S],
    ["a bank deposit awaiting the buyer's transfer (instant rail), 1 h", 'bankDeposit', 'awaiting_funds', H, 'instant', 10 * MIN],
    ["a bank deposit awaiting the buyer's transfer (under 2 h), 1 h", 'bankDeposit', 'awaiting_funds', H, 'under_2h', 10 * MIN],
    // Waiting on the service's own work: seconds to minutes.
    ['a payout converting, just seen', 'payout', 'converting', 0, undefined, 10 * S],
    ['a payout converting for 1 min', 'payout', 'converting', MIN, undefined, 60 * S],
    ['a payout converting for 10 min', 'payout', 'converting', 10 * MIN, undefined, 75 * S],
    ['a payout converting for 3 h (late)', 'payout', 'converting', 3 * H, undefined, 10 * MIN],
    ['a crypto deposit being routed, 20 s', 'deposit', 'pending', 20 * S, undefined, 20 * S],
    ['a card purchase processing, just seen', 'card', 'processing', 0, undefined, 10 * S],
    ['a bank deposit received, 5 min', 'bankDeposit', 'received', 5 * MIN, undefined, 75 * S],
    // Waiting on the rail: before the window the label allows, an hourly check (a return, a
    // rejection); in it and past it, at most 10 min apart.
    ['a payout sent on an instant rail, just seen', 'payout', 'sent', 0, 'instant', 10 * S],
    ['a payout sent on an instant rail, 2 min', 'payout', 'sent', 2 * MIN, 'instant', 25 * S],
    ['a payout sent on a t+0 rail, 3 h', 'payout', 'sent', 3 * H, 't+0', 10 * MIN],
    ['a payout sent on a t+1 rail, just seen', 'payout', 'sent', 0, 't+1', H],
    ['a payout sent on a t+1 rail, 2 h', 'payout', 'sent', 2 * H, 't+1', H],
    ["a payout sent on a t+1 rail, 11.5 h (lands on the window's start)", 'payout', 'sent', 11.5 * H, 't+1', 30 * MIN],
    ['a payout sent on a t+1 rail, 12 h (its window opens: at its spacing at once)', 'payout', 'sent', 12 * H, 't+1', 10 * MIN],
    ['a payout sent on a t+1 rail, 20 h (in the window)', 'payout', 'sent', 20 * H, 't+1', 10 * MIN],
    ['a payout sent on a t+1 rail, 40 h (late)', 'payout', 'sent', 40 * H, 't+1', 10 * MIN],
    ['a payout sent on a t+1..t+3 rail, 2 days', 'payout', 'sent', 2 * D, 't+1..t+3', 10 * MIN],
    ['a payout sent on a t+10 rail, 5 days (before its window)', 'payout', 'sent', 5 * D, 't+10', H],
    ['a payout sent on an under_2h rail, 1 h', 'payout', 'sent', H, 'under_2h', 10 * MIN],
    ['a payout sent on a rail of unknown settlement, 1 h (minutes to days)', 'payout', 'sent', H, undefined, 10 * MIN],
    ['a payout sent on a rail of a label this kit does not read, 1 h', 'payout', 'sent', H, 'next_week', 10 * MIN],
    ['a payout sent on a rail of an absurd label (t+36500), just seen: as an unknown one', 'payout', 'sent', 0, 't+36500', 10 * S],
    ['a payout sent on a rail of an absurd label (t+36500), 1 day', 'payout', 'sent', D, 't+36500', 10 * MIN],
    ['a card payout sent, 1 min (minutes to several working days)', 'cardPayout', 'sent', MIN, undefined, MIN],
    ['a card payout sent, 1 day', 'cardPayout', 'sent', D, undefined, 10 * MIN],
    ['an expired bank deposit (money in flight still lands), 1 h, instant rail: past its window, hourly', 'bankDeposit', 'expired', H, 'instant', H],
  ]
  it.each(table)('%s: %s %s', (_what, kind, status, since, settlement, expected) => {
    expect(look(kind, status, since, { settlement })).toBe(expected)
  })

  it("never waits longer than the fixed pace's 10 min while a move is plausible; an hour at most before a rail's window or past an expired deposit's", () => {
    const statuses: Record<LookInput['kind'], string[]> = {
      card: ['pending', 'processing', 'on_hold'],
      deposit: ['pending'],
      bankDeposit: ['awaiting_funds', 'received', 'converting', 'expired'],
      payout: ['pending', 'converting', 'sent'],
      cardPayout: ['pending', 'converting', 'sent'],
    }
    const labels = [undefined, 'instant', 'under_2h', 't+0', 't+1', 't+3', 't+1..t+3', 't+10', 't+36500', 'under_99999999d', 'soon']
    const elapsed = [0, S, MIN, 10 * MIN, H, 6 * H, 11 * H, 13 * H, D, 3 * D, 9 * D, 11 * D, 29 * D]
    for (const [kind, list] of Object.entries(statuses) as Array<[LookInput['kind'], string[]]>) {
      for (const status of list) {
        for (const settlement of labels) {
          for (const since of elapsed) {
            const wait = look(kind, status, since, { settlement })
            const window = settlementWindow(settlement)
            const beforeRail = kind === 'payout' && status === 'sent' && window !== undefined && since < window.from
            const pastExpired = status === 'expired'
            expect(wait, `${kind} ${status} ${settlement} ${since}`).toBeGreaterThan(0)
            expect(wait, `${kind} ${status} ${settlement} ${since}`).toBeLessThanOrEqual(beforeRail || pastExpired ? H : 10 * MIN)
          }
        }
      }
    }
  })

  it('backs off while nothing moves on a status it cannot place (no status yet, a card state the contract does not name): 5 s doubling, up to 10 min, as the fixed pace', () => {
    expect([0, 1, 2, 3, 6, 7, 20].map((n) => look('card', 'on_hold', 0, { unchangedLooks: n }))).toEqual([
      5 * S,
      10 * S,
      20 * S,
      40 * S,
      320 * S,
      10 * MIN,
      10 * MIN,
    ])
    expect(look('payout', null, 0)).toBe(5 * S)
  })

  it('counts from the last change, not from creation', () => {
    expect(look('payout', 'sent', 0, { createdAt: T0 - D, settlement: 't+1' })).toBe(H)
  })
})

describe("fixedPace (for comparison: the reconciler's fixed pace)", () => {
  const fixed = fixedPace({ pollIntervalMs: 5 * S, maxPollIntervalMs: 10 * MIN })
  const at = (looks: number, unchangedLooks: number) =>
    fixed({ kind: 'payout', status: 'sent', createdAt: T0, lastChangeAt: T0, now: T0 + D, settlement: 't+1', looks, unchangedLooks })
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
  it('t+10 is the longest t+N read: a window of 9.5 to 10.5 days', () => {
    expect(settlementWindow('t+10')).toEqual({ from: 9.5 * D, to: 10.5 * D })
  })
  it.each([
    undefined,
    '',
    'soon',
    't+',
    't+3..t+1',
    'under_h',
    't+11',
    't+36500',
    't+1..t+99999999999999999999',
    'under_11d',
    'under_99999999d',
    'under_999999h',
  ])('%s: unknown', (label) => {
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
