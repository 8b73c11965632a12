import { describe, expect, it } from 'vitest'
import { emptyDraft } from '../../../../src/flows/payout/base'
import type { PayoutState } from '../../../../src/flows/payout/machine'
import { buyer, ctx, run } from '../../helpers/payout'

// Issue 39, item 10: "20" typed as what arrives must never become 20 of the stablecoin by a switch of unit.
const form = (): PayoutState => ({ tag: 'form', buyer, form: ctx.emptyForm(), draft: emptyDraft() })

describe('payout form: the unit of the amount', () => {
  it('switching what the buyer types (what arrives ↔ what I send) empties the amount: the number meant the other unit', () => {
    const typed = run(form(), { type: 'EDIT', amount: '20' }, { type: 'EDIT', country: 'DE' })
    const switched = run(typed, { type: 'EDIT', kind: 'crypto' })
    expect(switched).toMatchObject({ tag: 'form', form: { kind: 'crypto', amount: '', country: 'DE' } })
    const back = run(run(switched, { type: 'EDIT', amount: '15' }), { type: 'EDIT', kind: 'fiat' })
    expect(back).toMatchObject({ form: { kind: 'fiat', amount: '', country: 'DE' } })
  })

  it('choosing the unit it already has, or any other edit, keeps the amount (a typo never clears the form)', () => {
    const typed = run(form(), { type: 'EDIT', amount: '20' })
    expect(run(typed, { type: 'EDIT', kind: 'fiat' })).toMatchObject({ form: { kind: 'fiat', amount: '20' } })
    expect(run(typed, { type: 'EDIT', amount: '20x' }, { type: 'EDIT', country: 'FR' })).toMatchObject({ form: { amount: '20x', country: 'FR' } })
  })
})
