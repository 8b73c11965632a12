// @vitest-environment happy-dom
// The payout form as the buyer uses it: what it dispatches (the shared vocabulary: EDIT with the
// changed field, SUBMIT), and the payout's own problem worded by errors/payoutWords.ts.
import { cleanup, fireEvent, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FormError, PayoutState } from '../../../../src/flows/payout/machine'
import { enLimits } from '../../../../src/i18n/shared/en-limits'
import { enPayout } from '../../../../src/i18n/en-payout'
import { addEnglish } from '../../../../src/i18n/i18n'
import { PayoutFormScreen } from '../../../../src/screens/payout/PayoutFormScreen'

// The payout's chunk adds its English strings when it loads; this test renders a screen alone.
addEnglish({ ...enPayout, ...enLimits })

afterEach(cleanup)

const source = { chainId: 8453, token: '0x5FbDB2315678afecb367f032d93F642f64180aa3', symbol: 'USDC', decimals: 6 }
const buyer = { accountId: 'acc_1', walletId: 'w_1', wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }

function setup(error?: FormError) {
  const state: Extract<PayoutState, { tag: 'form' }> = {
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
