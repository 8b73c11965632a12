import { describe, expect, it } from 'vitest'
import { emptyApplicant } from '../../../../src/identity/machine'
import { emptyDraft } from '../../../../src/flows/payout/base'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import { keptSteps, stepOf, stepsAfter, stepsFrom } from '../../../../src/flows/payout/steps'
import { BUYER, bankQuote, buyer, ctx, recordOf } from '../../helpers/payout'

// Issue 39, item 7: one number per screen, a total known from the start that never moves mid-flow.
const form = ctx.emptyForm()
const ask = { kind: 'fiat' as const, amount: '20', currency: 'EUR', country: 'DE' }
const priced = { form, draft: emptyDraft(), ask, quote: bankQuote(), quotedAt: 0 }
const funder = { sender: BUYER }
const pending = { form, draft: emptyDraft(), ask, funder }
const states = (known: boolean) => {
  const who = known ? { buyer } : {}
  return {
    form: { tag: 'form', form, draft: emptyDraft(), ...who },
    quoting: { tag: 'quoting', form, draft: emptyDraft(), ask, requote: false, ...who },
    quote: { tag: 'quote', ...priced, work: 'idle', ...who },
    connect: { tag: 'connect', ...priced, work: 'idle', ...who },
    verify: { tag: 'identity', form: { ...emptyApplicant, wallet: BUYER }, pending },
    details: { tag: 'details', form: { ...emptyApplicant, wallet: BUYER }, authCode: 'c', errors: {}, work: 'idle', pending },
    beneficiary: { tag: 'beneficiary', ...priced, buyer, funder, work: 'idle' },
    funding: { tag: 'funding', buyer, record: recordOf() },
    tracking: { tag: 'tracking', buyer, record: recordOf(), attempt: 0 },
    result: { tag: 'result', buyer, record: recordOf(), status: 'settled' },
  } as unknown as Record<string, PayoutState>
}

describe("the payout's step counter", () => {
  it('a new buyer: eight screens, each its own number, the total known on the form', () => {
    const s = states(false)
    expect(stepsFrom(s.form)).toBe(8)
    const path = ['form', 'quote', 'connect', 'verify', 'details', 'beneficiary', 'funding', 'tracking']
    expect(path.map((tag) => stepOf(s[tag], 8))).toEqual(path.map((_, i) => ({ step: i + 1, of: 8 })))
    expect(stepOf(s.quoting, 8)).toEqual({ step: 1, of: 8 })
    expect(stepOf(s.result, 8)).toEqual({ step: 8, of: 8 })
  })

  it('a known buyer: six screens (no identity steps)', () => {
    const s = states(true)
    expect(stepsFrom(s.form)).toBe(6)
    const path = ['form', 'quote', 'connect', 'beneficiary', 'funding', 'result']
    expect(path.map((tag) => stepOf(s[tag], 6))).toEqual(path.map((_, i) => ({ step: i + 1, of: 6 })))
  })

  it('a higher tier’s detour is counted under the destination it interrupts', () => {
    const detour = { ...states(true).verify, pending: { ...pending, tier: 'higher', buyer } } as unknown as PayoutState
    expect(stepOf(detour, 6)).toEqual({ step: 4, of: 6 })
    expect(stepOf(detour, 8)).toEqual({ step: 6, of: 8 })
    expect(stepsFrom(detour)).toBe(6)
  })

  it('the total never moves mid-flow: the buyer becomes known, goes back to the form, and the payout still has eight', () => {
    const s = states(false)
    let total = stepsFrom(s.form)
    const path = [s.form, s.quote, s.connect, s.verify, s.details, s.beneficiary, states(true).quote, states(true).form, states(true).quote]
    for (let i = 1; i < path.length; i++) total = stepsAfter(path[i - 1], path[i], total)
    expect(total).toBe(8)
  })

  it('a new payout decides its own total: after the result or start over (a known buyer now), and "Not you?" (a new buyer)', () => {
    const s = states(true)
    expect(stepsAfter(s.result, s.form, 8)).toBe(6)
    expect(stepsAfter(s.funding, s.form, 8)).toBe(6)
    const notYou = { tag: 'form', form, draft: emptyDraft(), forgetBuyer: true } as PayoutState
    expect(stepsAfter(s.form, notYou, 6)).toBe(8)
    // Typing on that form keeps it.
    expect(stepsAfter(notYou, { ...notYou, form: { ...form, amount: '2' } } as PayoutState, 8)).toBe(8)
  })

  it('a kept total is only one a payout has (the tab’s storage is never trusted as is)', () => {
    expect(keptSteps(6)).toBe(6)
    expect(keptSteps(8)).toBe(8)
    for (const bad of [7, '8', null, undefined, 0, 99, {}]) expect(keptSteps(bad)).toBeUndefined()
  })
})
