// @vitest-environment happy-dom
// Issue 15, item 13: the failed screen says only what the reason supports.
import { cleanup, render } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { readConfig } from '../../../../src/config/config'
import { enCard } from '../../../../src/i18n/en-card'
import { addEnglish } from '../../../../src/i18n/i18n'
import { CardStatusScreen } from '../../../../src/screens/card/CardStatusScreen'

addEnglish(enCard)
afterEach(cleanup)

const purchase = { id: 'cp_42', environment: 'sandbox', currency: 'EUR', total: '50', cryptoAmount: '0.0155', cryptoCurrency: 'ETH', createdAt: 0 }

function failed(reason?: string, status = 'failed') {
  const result = readConfig('?apiBase=https://api.example.com&partnerBase=https://p.example.com&locale=en')
  if (!result.ok) throw new Error(result.problem)
  const { container } = render(
    <CardStatusScreen state={{ tag: 'result', purchase, status: { status, environment: 'sandbox', reason } }} dispatch={() => {}} config={result.config} />,
  )
  return container.textContent ?? ''
}

describe('card failed screen', () => {
  it('delivery_failed after payment does not claim the card was not charged, and gives the purchase id', () => {
    const text = failed('delivery_failed')
    expect(text).not.toMatch(/not charged|nothing was charged/i)
    expect(text).toMatch(/payment went through/i)
    expect(text).toContain('cp_42')
  })
  it('an unknown or missing reason claims nothing either way', () => {
    for (const reason of ['something_new', undefined]) {
      const text = failed(reason)
      expect(text).not.toMatch(/not charged|nothing was charged/i)
      expect(text).toContain('cp_42')
    }
  })
  it('a declined card says the payment did not go through and what to do, and claims nothing about a charge (the contract does not say)', () => {
    const text = failed('card_declined')
    expect(text).toContain('The card payment did not go through, so no crypto is on its way. Start a new purchase to try again.')
    expect(text).not.toMatch(/not charged|nothing was charged/i)
  })
  it('cancelled and expired claim no more than the contract says (no "nothing was charged"), and give the purchase id', () => {
    for (const status of ['cancelled', 'expired']) {
      const text = failed(undefined, status)
      expect(text).not.toMatch(/not charged|nothing was charged/i)
      expect(text).toMatch(/no crypto is on its way/)
      expect(text).toContain('cp_42')
    }
  })
})

describe('card completed screen', () => {
  function completed(status: { cryptoAmount?: string; cryptoCurrency?: string }) {
    const result = readConfig('?apiBase=https://api.example.com&partnerBase=https://p.example.com&locale=en')
    if (!result.ok) throw new Error(result.problem)
    const { container } = render(
      <CardStatusScreen
        state={{ tag: 'result', purchase, status: { status: 'completed', environment: 'sandbox', ...status } }}
        dispatch={() => {}}
        config={result.config}
      />,
    )
    return container.querySelector('.notice')?.textContent ?? ''
  }
  it('names the amount the status gives as sent', () => {
    expect(completed({ cryptoAmount: '0.0149', cryptoCurrency: 'ETH' })).toContain('0.0149 ETH was sent to your wallet.')
  })
  it('without an amount in the status, does not call the quoted amount sent (the quote is not what was delivered)', () => {
    const text = completed({})
    expect(text).not.toContain('0.0155 ETH was sent')
    expect(text).toContain('The ETH was sent to your wallet.')
  })
})
