// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readConfig } from '../../../../src/config/config'
import type { CardState } from '../../../../src/flows/card/machine'
import { CardQuoteScreen } from '../../../../src/screens/card/CardQuoteScreen'
import { enCard } from '../../../../src/i18n/en-card'
import { addEnglish } from '../../../../src/i18n/i18n'

// The card flow's chunk adds its English strings when it loads; this test renders a screen alone.
addEnglish(enCard)

afterEach(cleanup)

function setup(locale: string, quote: Partial<Extract<CardState, { tag: 'quote' }>['quote']> = {}) {
  const result = readConfig(`?apiBase=https://api.example.com&partnerBase=https://partner.example.com&locale=${locale}`)
  if (!result.ok) throw new Error(result.problem)
  const state: Extract<CardState, { tag: 'quote' }> = {
    tag: 'quote',
    form: { currency: 'EUR', amount: '1234.5', address: '' },
    amount: '1234.5',
    quotedAt: 0,
    work: 'idle',
    quote: {
      cryptoAmount: '0.123456789012345678',
      cryptoCurrency: 'ETH',
      fiatAmount: '1185.04',
      rate: '3000',
      providerFee: '43.21',
      ourFee: '6.25',
      total: '1234.50',
      environment: 'sandbox',
      ...quote,
    },
  }
  const dispatch = vi.fn()
  render(<CardQuoteScreen state={state} dispatch={dispatch} config={result.config} />)
  return dispatch
}

const row = (name: RegExp) => screen.getByRole('row', { name })

describe('card quote display', () => {
  it('shows fees as parts of the total, from the decimal strings, without float rounding', () => {
    setup('en-US')
    expect(row(/You pay/).textContent).toContain('1,234.5 EUR')
    expect(row(/Card provider fee/).textContent).toContain('43.21 EUR')
    expect(row(/Service fee/).textContent).toContain('6.25 EUR')
    // 18 decimals survive: a float would print 0.12345678901234568
    expect(row(/You receive/).textContent).toContain('0.123456789012345678 ETH')
    expect(screen.getByText('Fees are included in the total.')).toBeTruthy()
  })

  it('formats for the locale', () => {
    setup('de-DE')
    expect(row(/You pay/).textContent).toContain('1.234,5 EUR')
    expect(row(/You receive/).textContent).toContain('0,123456789012345678 ETH')
  })

  it('reads the asset from the quote instead of assuming USDC, and says which environment answered', () => {
    setup('en-US', { cryptoCurrency: 'BTC', cryptoAmount: '0.001' })
    expect(row(/You receive/).textContent).toContain('0.001 BTC')
    expect(screen.getByText('Sandbox: no card is charged')).toBeTruthy()
  })

  it('renders server text as text', () => {
    setup('en-US', { cryptoCurrency: '<img src=x onerror=alert(1)>' })
    expect(document.querySelector('img')).toBeNull()
    expect(row(/You receive/).textContent).toContain('<img src=x onerror=alert(1)>')
  })
})
