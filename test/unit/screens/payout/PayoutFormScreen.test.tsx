// @vitest-environment happy-dom
// The payout form as the buyer uses it: what it dispatches (the shared vocabulary: EDIT with the
// changed field, SUBMIT), and the payout's own problem worded by errors/payoutWords.ts.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FormError } from '../../../../src/flows/payout/base'
import type { FormState } from '../../../../src/flows/payout/state'
import { enLimits } from '../../../../src/i18n/shared/en-limits'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'
import { PayoutFormScreen } from '../../../../src/screens/payout/PayoutFormScreen'
import { buyer, source } from '../../helpers/payout'

// The payout's chunk adds its English strings when it loads; this test renders a screen alone.
addEnglish({ ...enPayout, ...enLimits })

afterEach(cleanup)

function setup(error?: FormError) {
  const state: FormState = {
    tag: 'form',
    buyer,
    form: { kind: 'fiat', amount: '20', currency: 'EUR', country: 'DE', rail: '' },
    draft: { values: {}, purpose: '' },
    error,
  }
  const dispatch = vi.fn()
  render(<PayoutFormScreen state={state} dispatch={dispatch} source={source} currencies={['EUR', 'USD']} locale="en" />)
  return dispatch
}

describe('payout form screen', () => {
  it('a quote for another amount than asked is said in the buyer’s words, with its code', () => {
    setup({ kind: 'ask', rule: 'ask.fiat' })
    expect(screen.getByText(enPayout['payout.problem.ask.fiat'])).toBeTruthy()
    expect(document.body.textContent).toContain('payout_ask.fiat')
  })

  it('a service problem is said with its own words and code', () => {
    setup({ kind: 'api', problem: { key: 'payout.problem.mismatch', code: 'no_route' } })
    expect(screen.getByText(enPayout['payout.problem.mismatch'])).toBeTruthy()
    expect(document.body.textContent).toContain('no_route')
  })

  it('a changed field is an EDIT carrying it; sending the form is SUBMIT', () => {
    const dispatch = setup()
    fireEvent.change(screen.getByLabelText(enPayout['payout.currency']), { target: { value: 'USD' } })
    expect(dispatch).toHaveBeenLastCalledWith({ type: 'EDIT', currency: 'USD' })
    fireEvent.click(screen.getByRole('button', { name: enPayout['payout.getQuote'] }))
    expect(dispatch).toHaveBeenLastCalledWith({ type: 'SUBMIT' })
  })
})
