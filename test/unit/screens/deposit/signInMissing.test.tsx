// @vitest-environment happy-dom
// A link without sign-in whose partner's kit, asked as the price was, knows no buyer for it (401:
// session.noSignIn): the price says so before the buyer confirms, and offers nothing to confirm.
// Back loses nothing. Without that answer, the price is as always.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import type { DepositState } from '../../../../src/flows/deposit/machine'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { QuoteScreen } from '../../../../src/screens/deposit/QuoteScreen'
import { START, depositConfig, depositQuote, form } from '../../helpers/deposit'

addEnglish(enDeposit)
afterEach(cleanup)

const wallet = { kind: 'injected' as const, id: 'w1', name: 'Test Wallet', rdns: 'test.wallet' }
const account = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const quote = (noSignIn: boolean): Extract<DepositState, { tag: 'quote' }> => ({
  tag: 'quote',
  form,
  session: { wallet, account, ...(noSignIn && { noSignIn: true as const }) },
  amount: '25.5',
  work: 'idle',
  quote: depositQuote(START, 10 * 60_000),
  quotedAt: START,
  preview: { kind: 'ready', safe: true, outflow: [{ amount: '25.5', symbol: 'USDC' }], feeSymbol: 'ETH' },
})
const unsigned: WidgetConfig = { ...depositConfig, partnerBase: 'https://shop.example.com/api', walletLink: true }
const SIGN_IN =
  "This payment link cannot take a crypto deposit without your sign-in on the shop's site. Nothing was sent. Sign in on the site you came from and start the deposit from there."

function at(noSignIn: boolean) {
  const dispatch = vi.fn()
  render(<QuoteScreen state={quote(noSignIn)} dispatch={dispatch} config={unsigned} />)
  return { confirm: screen.getByRole('button', { name: 'Confirm and send' }) as HTMLButtonElement, dispatch }
}

describe('the price of a deposit the kit knows no buyer for', () => {
  it('says why before confirming, and offers nothing to confirm; Back loses nothing', () => {
    const { confirm, dispatch } = at(true)
    expect(screen.getByText(SIGN_IN)).toBeTruthy()
    expect(confirm.disabled).toBe(true)
    confirm.click()
    expect(dispatch).not.toHaveBeenCalled()
    const back = screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement
    expect(back.disabled).toBe(false)
    back.click()
    expect(dispatch).toHaveBeenCalledWith({ type: 'BACK' })
  })

  it('without that answer (a link with a token, or a backend that knows its buyer), the price as always', () => {
    const { confirm } = at(false)
    expect(screen.queryByText(SIGN_IN)).toBeNull()
    expect(confirm.disabled).toBe(false)
  })
})
