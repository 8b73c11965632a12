// @vitest-environment happy-dom
// The deposit's timeline lists "Confirm this wallet is yours" only where the send asks the partner's
// kit (walletLink and partnerBase: flows/deposit/walletCheck.ts, the one predicate sendChecks.ts
// reads too). With walletLink off (the default, and every partner whose backend only serves the
// card and bank routes) nothing is asked: the step is not listed, let alone marked done.
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WidgetConfig } from '../../../../src/config/config'
import type { DepositState, SendStep } from '../../../../src/flows/deposit/machine'
import { enDeposit } from '../../../../src/i18n/en-deposit'
import { addEnglish } from '../../../../src/i18n/i18n'
import { QuoteScreen } from '../../../../src/screens/deposit/QuoteScreen'
import { START, depositConfig, depositQuote, form } from '../../helpers/deposit'

addEnglish(enDeposit)
afterEach(cleanup)

const wallet = { kind: 'injected' as const, id: 'w1', name: 'Test Wallet', rdns: 'test.wallet' }
const quoteAt = (work: SendStep): Extract<DepositState, { tag: 'quote' }> => ({
  tag: 'quote',
  form,
  session: { wallet, account: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  amount: '25.5',
  work,
  quote: depositQuote(START, 10 * 60_000),
  quotedAt: START,
  preview: { kind: 'ready', safe: true, outflow: [{ amount: '25.5', symbol: 'USDC' }], feeSymbol: 'ETH' },
})

/** The timeline's steps as the buyer reads them: "label (state)". */
function steps(config: WidgetConfig, work: SendStep): string[] {
  render(<QuoteScreen state={quoteAt(work)} dispatch={vi.fn()} config={config} />)
  const list = screen.getByRole('list', { name: 'Progress' })
  const out = Array.from(list.querySelectorAll('li .label')).map((li) => li.textContent?.replace(/\s+/g, ' ').trim() ?? '')
  cleanup()
  return out
}

describe('the deposit timeline and the wallet check', () => {
  const offWithBackend: WidgetConfig = { ...depositConfig, partnerBase: 'https://shop.example.com/api', walletLink: false }

  it.each<SendStep>(['checking', 'sending'])('at %s: lists no wallet confirmation step (none is asked), and never says it was done', (work) => {
    const seen = steps(offWithBackend, work)
    expect(seen.filter((s) => s.startsWith('Confirm this wallet is yours'))).toEqual([])
  })

  it('with walletLink on the step is listed, and done once the send is past it', () => {
    expect(steps({ ...offWithBackend, walletLink: true }, 'checking')).toContain('Confirm this wallet is yours (to do)')
    expect(steps({ ...offWithBackend, walletLink: true }, 'sending')).toContain('Confirm this wallet is yours (done)')
  })

  it('walletLink without a backend to ask (a config no options give: parseOptions refuses it) lists no step, as the send asks no one', () => {
    expect(steps({ ...depositConfig, walletLink: true }, 'sending').filter((s) => s.startsWith('Confirm this wallet is yours'))).toEqual([])
  })
})
